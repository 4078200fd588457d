//! The selected project's resumption prompt exactly as `resume-tui prompt` renders
//! it (Template 1 for Jerry, the mandatory loading sequence for Nexus), and the
//! folder and command that start Claude Code on it. The loader makes the
//! workspace root absolute, so both name absolute paths.

use crate::core::launch;
use crate::core::model::{Project, ProjectKind};
use crate::core::render::nexus::{NexusInput, Style};
use crate::core::render::{Rendered, render_nexus, render_prompt};

use super::glyphs::Glyphs;
use super::model::Model;

/// How the dashboard names the prompt of `project`.
pub fn title(project: &Project) -> &'static str {
    match project.kind {
        ProjectKind::Jerry => "resumption prompt",
        ProjectKind::Nexus => "Nexus loading sequence",
    }
}

/// The prompt `resume-tui prompt` prints for `project`; an error says why there is
/// none (a Nexus project whose manifest could not be read). A Nexus sequence is in
/// the plain style (`--style plain`) when the screen is drawn in ASCII, whose cells
/// have no emoji: the Prompt tab shows it and `y` copies it, the same text.
pub fn prompt(model: &Model, project: &Project) -> Result<Rendered, String> {
    match project.kind {
        ProjectKind::Jerry => Ok(render_prompt(project)),
        ProjectKind::Nexus => {
            let manifest = project
                .manifest
                .as_ref()
                .ok_or_else(|| crate::core::normalize::nexus::nothing_to_resume(project))?;
            let abs_dir = launch::join(&model.workspace.root, &project.dir);
            Ok(render_nexus(&NexusInput {
                project,
                manifest,
                abs_dir: &abs_dir,
                confidence: None,
                style: nexus_style(model.glyphs),
            }))
        }
    }
}

/// The Nexus style the screen can show.
pub fn nexus_style(glyphs: Glyphs) -> Style {
    match glyphs {
        Glyphs::Unicode => Style::Emoji,
        Glyphs::Ascii => Style::Plain,
    }
}

/// The absolute folder Claude Code should start in for `project`.
pub fn launch_dir(model: &Model, project: &Project) -> String {
    launch::join(&model.workspace.root, &launch::launch_base(project))
}
