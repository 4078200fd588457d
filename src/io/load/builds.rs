//! A Nexus build's planning files joined to its project: the manifest's project
//! gets what they add, a build without a manifest becomes a project of its own.
//! And archived copies say so.

use crate::core::model::{Diagnostic, Project, ProjectKind};
use crate::core::normalize::nexus::{
    BuildFile, BuildFiles, apply_build_files, build_without_manifest,
};
use crate::core::workspace::{Placement, placement};
use crate::io::discover::{FileKind, Found};

/// `files` are the overviews and steps read, with their text.
pub fn attach(projects: &mut Vec<Project>, files: &[(&Found, String)]) {
    let mut dirs: Vec<&str> = files.iter().map(|(f, _)| f.dir.as_str()).collect();
    dirs.sort_unstable();
    dirs.dedup();
    for dir in dirs {
        let of_kind = |kind: FileKind| {
            files
                .iter()
                .find(|(f, _)| f.dir == dir && f.kind == kind)
                .map(|(f, text)| BuildFile {
                    source: &f.rel,
                    text,
                })
        };
        let build = BuildFiles {
            overview: of_kind(FileKind::NexusOverview),
            steps: of_kind(FileKind::NexusSteps),
        };
        match projects
            .iter_mut()
            .find(|p| p.kind == ProjectKind::Nexus && p.dir == dir)
        {
            Some(project) => apply_build_files(project, build),
            None => projects.extend(build_without_manifest(dir, build)),
        }
    }
}

/// A project in an archived folder (`docs/archive/`, `_old-build/`) is listed
/// with a warning saying the hooks never choose it.
pub fn note_archived(projects: &mut [Project]) {
    for project in projects {
        if let Placement::Archived(why) = placement(&project.source) {
            project
                .diagnostics
                .push(Diagnostic::warning(project.source.clone(), why));
        }
    }
}

#[cfg(test)]
#[path = "builds_tests.rs"]
mod tests;
