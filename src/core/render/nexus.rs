//! The Nexus mandatory loading sequence (seed 001, Part 3.2 and Part 7) from a
//! `resume-context.md` / `_resume.md` manifest, in the seed's emoji style or in
//! plain ASCII for screen readers and terminals without emoji.

#[path = "nexus_parts.rs"]
mod parts;

use super::budget::{Rendered, finish};
use super::format::one_line;
use super::state;
use crate::core::model::{NexusManifest, Project};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Style {
    #[default]
    Emoji,
    Plain,
}

/// What the sequence is rendered for.
pub struct NexusInput<'a> {
    pub project: &'a Project,
    pub manifest: &'a NexusManifest,
    /// The project folder as an absolute path. Listed files the loader found
    /// (`FileToLoad::resolved`, root-relative) are shown under the workspace root
    /// above it; the others under this folder.
    pub abs_dir: &'a str,
    /// `precompact_state.json` confidence when resuming after a compaction;
    /// `None` when the operator asked for the sequence.
    pub confidence: Option<&'a str>,
    pub style: Style,
}

struct Marks {
    style: Style,
}

impl Marks {
    fn banner(&self, emoji: &str, text: &str) -> String {
        match self.style {
            Style::Emoji => format!("{0}{0}{0} {text} {0}{0}{0}", emoji),
            Style::Plain => format!("*** {text} ***"),
        }
    }
    fn rule(&self) -> String {
        let c = if self.style == Style::Emoji {
            "═"
        } else {
            "="
        };
        c.repeat(67)
    }
    fn step(&self, text: &str) -> String {
        match self.style {
            Style::Emoji => format!("✓ {text}"),
            Style::Plain => text.to_string(),
        }
    }
    fn warn(&self, text: &str, closing: bool) -> String {
        match (self.style, closing) {
            (Style::Emoji, true) => format!("⚠️ {text} ⚠️"),
            (Style::Emoji, false) => format!("⚠️ {text}"),
            (Style::Plain, _) => format!("WARNING: {text}"),
        }
    }
    fn alarm(&self, text: &str) -> String {
        match self.style {
            Style::Emoji => format!("🚨 {text}"),
            Style::Plain => format!("! {text}"),
        }
    }
    fn stop(&self, text: &str, closing: bool) -> String {
        match (self.style, closing) {
            (Style::Emoji, true) => format!("🛑 {text} 🛑"),
            (Style::Emoji, false) => format!("🛑 {text}"),
            (Style::Plain, _) => format!("STOP: {text}"),
        }
    }
}

pub fn render_nexus(input: &NexusInput) -> Rendered {
    let m = Marks { style: input.style };
    let manifest = input.manifest;
    let dir = input.abs_dir.trim_end_matches(['/', '\\']);
    let resume_rel = input
        .project
        .source
        .strip_prefix(&format!("{}/", input.project.dir))
        .unwrap_or(&input.project.source);
    let resume_path = join(dir, resume_rel);
    let root = root_of(dir, &input.project.dir);
    let files: Vec<String> = manifest
        .files_to_load
        .iter()
        .map(|f| {
            let path = match (&f.resolved, root) {
                (Some(resolved), Some(root)) => join(root, &one_line(resolved)),
                _ => join(dir, &one_line(&f.path)),
            };
            if f.exists == Some(false) {
                format!("{path}  (not found)")
            } else {
                path
            }
        })
        .collect();
    let missing = manifest
        .files_to_load
        .iter()
        .filter(|f| f.exists == Some(false))
        .count();
    let project_id =
        first(&[&manifest.project_id, &manifest.build_id]).unwrap_or(&input.project.id);
    let phase = manifest.current_phase.as_deref().unwrap_or("unknown");
    // A section number is said to be one, never shown as a task.
    let task = match first(&[&manifest.current_task, &manifest.continue_at]) {
        Some(task) => task.to_string(),
        None => first(&[&manifest.current_section]).map_or("unknown".into(), |section| {
            format!("section {section} (no current_task)")
        }),
    };
    let stated = manifest
        .next_action
        .as_deref()
        .filter(|a| !parts::says_nothing(a))
        .map(one_line);
    let finished = input.project.summary.status.as_deref() == Some("COMPLETE");
    let skill = stated.clone().unwrap_or_else(|| "execute-project".into());
    let next_steps = parts::next_section(&manifest.body);
    let asks_validation = parts::asks_validation(&manifest.body);
    let existing = parts::existing_files(manifest);
    let rule = m.rule();

    let mut o: Vec<String> = vec![
        m.banner("🚨", "CATASTROPHIC MANDATORY LOADING SEQUENCE"),
        m.banner("⚠️", "FAILURE TO FOLLOW = COMPLETE CONTEXT LOSS"),
        m.banner("🛑", "DO NOT SKIP ANY STEP - VALIDATION REQUIRED"),
        String::new(),
        rule.clone(),
        String::new(),
    ];
    match input.confidence {
        Some(confidence) => {
            o.push(format!(
                "DETECTED: Auto-resume after compaction (confidence: {confidence})"
            ));
            if confidence.eq_ignore_ascii_case("medium") {
                o.push(String::new());
                o.push(m.warn(
                    "MEDIUM CONFIDENCE: Project detected from transcript references",
                    false,
                ));
                o.push(m.warn(
                    "If this seems incorrect, inform the user before proceeding",
                    false,
                ));
            }
        }
        None => o.push("DETECTED: Resume requested by the operator".into()),
    }
    if let Some(folder) = parts::archive_folder(&input.project.source) {
        o.push(String::new());
        o.push(m.warn(
            &format!(
                "ARCHIVED: this build lies in {folder}/, an archive folder: \
                 confirm with the user that it should be resumed at all"
            ),
            false,
        ));
    }
    if finished {
        o.push(String::new());
        o.push(m.warn(
            "FINISHED: this build is marked COMPLETE: nothing is left to resume; \
             ask the user what to do before doing anything",
            false,
        ));
    }
    let behind = &input.project.summary.behind;
    if !behind.is_empty() {
        o.push(String::new());
        o.push("NOTE: the manifest is behind newer evidence; the newer side is current:".into());
        o.extend(behind.iter().map(|line| format!("  - {}", one_line(line))));
    }
    o.push(String::new());
    o.push(format!("PROJECT DETECTED: {}", one_line(project_id)));
    let phase_behind = behind.iter().any(|l| l.starts_with("current_phase is"));
    o.push(format!(
        "CURRENT PHASE: {}{}",
        one_line(phase),
        if phase_behind {
            " [as current_phase says; behind newer evidence, see NOTE above]"
        } else {
            ""
        }
    ));
    o.push(format!("CURRENT TASK: {}", one_line(&task)));
    match (&stated, &next_steps) {
        (Some(action), _) => o.push(format!("NEXT ACTION: {action}")),
        (None, Some(_)) => {
            o.push("NEXT ACTION: the manifest has no next_action; see NEXT STEPS below".into())
        }
        (None, None) => o.push(
            "NEXT ACTION: the manifest states none (no next_action, no Next Steps section): \
             ask the user"
                .into(),
        ),
    }
    // The next action in the words the alert and the start-up summary use
    // (`state::next_action`), when it says more than the manifest's own.
    let newest = state::newest_checkpoint(&input.project.checkpoints);
    let activity = state::activity(input.project);
    if let Some(next) = state::next_action(Some(input.project), newest, activity.as_deref())
        .filter(|next| Some(one_line(next)) != stated && !parts::says_nothing(next))
    {
        o.push(format!("Continue from: {}", one_line(&next)));
    }
    if let Some((title, lines)) = &next_steps {
        o.push(String::new());
        o.push(format!(
            "NEXT STEPS (the resume file's \"{}\"):",
            one_line(title)
        ));
        for line in lines.iter().take(parts::MAX_NEXT_LINES) {
            o.push(format!("   {}", one_line(line)));
        }
        if lines.len() > parts::MAX_NEXT_LINES {
            o.push(format!(
                "   (… {} more lines in the resume file)",
                lines.len() - parts::MAX_NEXT_LINES
            ));
        }
    }
    o.extend([String::new(), rule.clone(), String::new()]);
    o.push("YOU MUST FOLLOW THIS EXACT SEQUENCE:".into());
    o.push(String::new());
    o.push(m.step("STEP 1: READ RESUME FILE FIRST"));
    o.push(format!("   File: {resume_path}"));
    o.push(String::new());
    let mut contains = Vec::new();
    if !files.is_empty() {
        contains.push(format!("   - The {} files you MUST load", files.len()));
    }
    if asks_validation {
        contains.push("   - Validation questions you MUST answer".into());
    }
    match (&stated, &next_steps) {
        (Some(_), _) => contains.push("   - The next action you MUST execute".into()),
        (None, Some((title, _))) => {
            contains.push(format!("   - Its \"{}\" section", one_line(title)))
        }
        (None, None) => {}
    }
    if !contains.is_empty() {
        o.push("   This file contains:".into());
        o.extend(contains);
        o.push(String::new());
    }
    o.push(format!(
        "   {}",
        m.warn("READ THIS FILE BEFORE ANYTHING ELSE", true)
    ));
    o.push(String::new());
    o.push(m.step("STEP 2: LOAD ALL REQUIRED FILES IN PARALLEL"));
    o.push(String::new());
    o.push("   YOU MUST READ THESE FILES (use Read tool):".into());
    o.push(String::new());
    if files.is_empty() {
        o.push("   (files_to_load is empty: load the files the resume file names)".into());
    }
    for (i, path) in files.iter().enumerate() {
        o.push(format!("   {}. {path}", i + 1));
    }
    o.push(String::new());
    if missing == 0 {
        o.push(format!(
            "   {}",
            m.alarm("CRITICAL: Use the Read tool to load ALL files above")
        ));
        o.push(format!(
            "   {}",
            m.alarm("DO NOT proceed until ALL files are loaded")
        ));
        o.push(format!(
            "   {}",
            m.alarm("If any file is missing, STOP and report error")
        ));
    } else {
        o.push(format!(
            "   {}",
            m.alarm("CRITICAL: Use the Read tool to load every file above that exists")
        ));
        let which = if missing == files.len() {
            format!("None of the {missing} files above exists")
        } else {
            format!("{missing} of the {} files above do not exist", files.len())
        };
        o.push(format!(
            "   {}",
            m.alarm(&format!("{which} (marked not found): tell the user which"))
        ));
    }
    o.push(String::new());
    o.push(m.step("STEP 3: ANSWER VALIDATION QUESTIONS"));
    o.push(String::new());
    if asks_validation {
        o.push("   The resume file has validation questions: answer them, and:".into());
        o.push(String::new());
    }
    o.push("   YOU MUST ANSWER:".into());
    let questions = [
        ("What problem are we solving?", "overview.md"),
        ("What is the next task?", "steps.md"),
        ("What is the approach?", "plan.md"),
    ];
    for (i, (question, suffix)) in questions.iter().enumerate() {
        let from = parts::file_ending(&existing, suffix).unwrap_or("the resume file");
        o.push(format!(
            "   {}. {question} (from {})",
            i + 1,
            one_line(from)
        ));
    }
    o.push(String::new());
    o.push(format!(
        "   {}",
        m.warn("If you CANNOT answer these questions:", false)
    ));
    o.push("      - STOP immediately".into());
    o.push("      - Re-read the files from STEP 2".into());
    o.push("      - DO NOT continue until you can answer".into());
    o.push(String::new());
    o.push(format!(
        "   {}",
        m.stop(
            "VALIDATION GATE: Cannot proceed without understanding",
            false
        )
    ));
    o.push(String::new());
    o.push(m.step("STEP 4: AUTO-EXECUTE SKILL"));
    o.push(String::new());
    if finished {
        o.push("   After validation passes: nothing to execute, the build is finished.".into());
        if let Some(action) = &stated {
            o.push(format!(
                "   The manifest's next_action is {action}: run it only if the user asks."
            ));
        }
        o.push("   Tell the user so and ask what to do next.".into());
    } else {
        o.push("   After validation passes, execute:".into());
        if stated.is_some() {
            o.push(format!("   Skill: {skill} (the NEXT ACTION above)"));
        } else {
            o.push(format!(
                "   Skill: {skill} (Nexus's default: the manifest names no next_action)"
            ));
        }
        o.push(String::new());
        o.push("   This will continue your work from where you left off.".into());
    }
    o.extend([String::new(), rule.clone(), String::new()]);
    o.push("CHECKLIST (verify before continuing):".into());
    o.push(String::new());
    o.push(format!("[ ] I have read {resume_path}"));
    if missing == 0 {
        o.push(format!(
            "[ ] I have loaded ALL {} files from files_to_load",
            files.len()
        ));
    } else {
        o.push(format!(
            "[ ] I have loaded the {} files from files_to_load that exist and named the {missing} missing ones",
            files.len() - missing
        ));
    }
    o.push("[ ] I can answer all 3 validation questions".into());
    o.push("[ ] I understand the current task and context".into());
    if finished {
        o.push("[ ] I have told the user the build is finished".into());
    } else {
        o.push(format!("[ ] I am ready to execute {skill}"));
    }
    o.extend([String::new(), rule.clone(), String::new()]);
    o.push(m.alarm("IF YOU SKIP THIS SEQUENCE, YOU WILL:"));
    o.push("   - Lose all project context".into());
    o.push("   - Break the workflow".into());
    o.push("   - Produce incorrect results".into());
    o.push("   - Waste the user's time".into());
    o.push(String::new());
    o.push(m.warn("THIS IS NOT OPTIONAL - THIS IS MANDATORY", true));
    o.push(String::new());
    o.push(m.stop(
        "DO NOT RESPOND TO THE USER UNTIL YOU COMPLETE ALL STEPS",
        true,
    ));
    o.push(String::new());
    o.push(rule);
    let mut text = o.join("\n");
    text.push('\n');
    finish(&text, vec![input.project.source.clone()], false)
}

fn first<'a>(values: &[&'a Option<String>]) -> Option<&'a str> {
    values
        .iter()
        .filter_map(|v| v.as_deref())
        .find(|v| !v.trim().is_empty())
}

/// The workspace root: `abs_dir` without the project's root-relative `dir`.
fn root_of<'a>(abs_dir: &'a str, dir: &str) -> Option<&'a str> {
    let dir = dir.trim_matches('/');
    if dir.is_empty() {
        return Some(abs_dir);
    }
    let root = abs_dir.strip_suffix(dir)?;
    if root.is_empty() {
        return Some("");
    }
    root.strip_suffix(['/', '\\'])
}

/// `dir/path`, unless `path` is already absolute.
fn join(dir: &str, path: &str) -> String {
    let path = path.trim();
    let absolute = path.starts_with('/')
        || path.starts_with('\\')
        || path.get(1..3).is_some_and(|s| s == ":/" || s == ":\\");
    if absolute || dir.is_empty() {
        path.to_string()
    } else {
        format!("{dir}/{}", path.trim_start_matches("./"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::normalize::nexus::normalize_manifest;

    const MANIFEST: &str = "---\nresume_schema_version: \"1.0\"\nproject_id: 36-x\n\
        files_to_load:\n  - 01-planning/01-overview.md\n  - 00-system/skills/prompt.md\n  \
        - 02-resources/gone.md\n---\nbody\n";

    fn render(abs_dir: &str, found: [Option<&str>; 3]) -> String {
        let mut project = normalize_manifest(
            "n/02-projects/36-x/01-planning/resume-context.md",
            "n/02-projects/36-x",
            MANIFEST,
        );
        let mut manifest = project.manifest.take().unwrap();
        for (file, resolved) in manifest.files_to_load.iter_mut().zip(found) {
            file.exists = Some(resolved.is_some());
            file.resolved = resolved.map(str::to_string);
        }
        let input = NexusInput {
            project: &project,
            manifest: &manifest,
            abs_dir,
            confidence: None,
            style: Style::Plain,
        };
        render_nexus(&input).text
    }

    #[test]
    fn files_found_from_the_nexus_root_are_not_put_under_the_project_folder() {
        let text = render(
            "/ws/n/02-projects/36-x",
            [
                Some("n/02-projects/36-x/01-planning/01-overview.md"),
                Some("n/00-system/skills/prompt.md"),
                None,
            ],
        );
        assert!(
            text.contains("   1. /ws/n/02-projects/36-x/01-planning/01-overview.md\n"),
            "{text}"
        );
        assert!(
            text.contains("   2. /ws/n/00-system/skills/prompt.md\n"),
            "{text}"
        );
        assert!(
            text.contains("   3. /ws/n/02-projects/36-x/02-resources/gone.md  (not found)\n"),
            "{text}"
        );
    }

    /// A v5 build: its manifest lists `01-overview.md` … `04-steps.md`, of which
    /// only the overview and steps exist; its body has a "Next Steps" section.
    fn build_sequence(source: &str, planning: Option<Vec<String>>) -> String {
        let dir = source.trim_end_matches("/01-planning/resume-context.md");
        let text = "---\nresume_schema_version: \"2.0\"\nbuild_id: 07-b\n\
            current_phase: execution\nfiles_to_load:\n  - 01-planning/01-overview.md\n  \
            - 01-planning/03-plan.md\n---\n# B\n## Done\n- x\n### Next Steps\n1. Wire the API\n\
            2. Test it\n## Notes\nlater\n";
        let mut project = normalize_manifest(source, dir, text);
        let mut manifest = project.manifest.take().unwrap();
        manifest.files_to_load[0].exists = Some(true);
        manifest.files_to_load[1].exists = Some(false);
        manifest.planning_files = planning;
        let input = NexusInput {
            project: &project,
            manifest: &manifest,
            abs_dir: &format!("/ws/{dir}"),
            confidence: None,
            style: Style::Plain,
        };
        render_nexus(&input).text
    }

    #[test]
    fn only_files_that_exist_are_named_and_no_absent_content_is_claimed() {
        let planning = Some(vec!["01-overview.md".into(), "04-steps.md".into()]);
        let text = build_sequence(
            "02-builds/active/07-b/01-planning/resume-context.md",
            planning,
        );
        assert!(
            text.contains("1. What problem are we solving? (from 01-planning/01-overview.md)\n"),
            "{text}"
        );
        assert!(
            text.contains("2. What is the next task? (from 01-planning/04-steps.md)\n"),
            "{text}"
        );
        assert!(
            text.contains("3. What is the approach? (from the resume file)\n"),
            "{text}"
        );
        for absent in [
            "overview.md)",
            "steps.md)",
            "plan.md)",
            "_resume.md",
            "Validation questions you MUST",
        ] {
            assert!(
                !text.contains(&format!(" {absent}")) && !text.contains(&format!("({absent}")),
                "{absent}: {text}"
            );
        }
        assert!(
            text.contains("1 of the 2 files above do not exist (marked not found)"),
            "{text}"
        );
        assert!(!text.contains("ARCHIVED"), "{text}");
    }

    #[test]
    fn the_next_steps_come_before_the_sequence_and_an_archived_build_says_so() {
        let text = build_sequence("05-archived/07-b/01-planning/resume-context.md", None);
        let next = text.find("NEXT STEPS (the resume file's \"Next Steps\"):\n   1. Wire the API\n   2. Test it\n").expect(&text);
        assert!(next < text.find("STEP 1").unwrap(), "{text}");
        assert!(
            text.contains("NEXT ACTION: the manifest has no next_action; see NEXT STEPS below\n"),
            "{text}"
        );
        assert!(!text.contains("later"), "{text}");
        let archived = text
            .find("WARNING: ARCHIVED: this build lies in 05-archived/")
            .expect(&text);
        assert!(archived < text.find("PROJECT DETECTED").unwrap(), "{text}");
        assert!(
            text.contains(
                "Skill: execute-project (Nexus's default: the manifest names no next_action)"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_finished_build_runs_nothing_and_a_section_is_not_a_task() {
        let text = "---\nproject_id: 21-x\ncurrent_phase: complete\nnext_action: none\n\
                    current_section: 4\n---\nbody\n";
        let project = normalize_manifest(
            "02-projects/21-x/01-planning/resume-context.md",
            "02-projects/21-x",
            text,
        );
        let manifest = project.manifest.clone().unwrap();
        let text = render_nexus(&NexusInput {
            project: &project,
            manifest: &manifest,
            abs_dir: "/ws/02-projects/21-x",
            confidence: None,
            style: Style::Plain,
        })
        .text;
        assert!(
            text.contains("WARNING: FINISHED: this build is marked COMPLETE"),
            "{text}"
        );
        assert!(
            text.contains("CURRENT TASK: section 4 (no current_task)\n"),
            "{text}"
        );
        assert!(
            text.contains("NEXT ACTION: the manifest states none"),
            "{text}"
        );
        for never in ["Skill:", ": none\n", "execute-project"] {
            assert!(!text.contains(never), "{never}: {text}");
        }
        assert!(
            text.contains("nothing to execute, the build is finished."),
            "{text}"
        );
    }

    #[test]
    fn a_frontmatter_behind_its_body_is_said_above_the_phase() {
        let text = "---\nproject_id: 28-x\ncurrent_phase: planning\nnext_action: execute-project\n---\n\
                    - **Phase**: Planning complete, ready for execution\n";
        let project = normalize_manifest(
            "02-projects/28-x/01-planning/resume-context.md",
            "02-projects/28-x",
            text,
        );
        let manifest = project.manifest.clone().unwrap();
        let text = render_nexus(&NexusInput {
            project: &project,
            manifest: &manifest,
            abs_dir: "/ws/02-projects/28-x",
            confidence: None,
            style: Style::Plain,
        })
        .text;
        let note = text
            .find("NOTE: the manifest is behind newer evidence; the newer side is current:\n  - current_phase is planning, but the body's **Phase** says \"Planning complete, ready for execution\"\n")
            .expect(&text);
        let phase = text
            .find("CURRENT PHASE: planning [as current_phase says; behind newer evidence, see NOTE above]\n")
            .expect(&text);
        assert!(note < phase, "{text}");
    }

    #[test]
    fn the_root_is_the_folder_above_the_project() {
        assert_eq!(
            root_of("/ws/n/02-projects/x", "n/02-projects/x"),
            Some("/ws")
        );
        assert_eq!(root_of("/ws", ""), Some("/ws"));
        assert_eq!(root_of("n/02-projects/x", "n/02-projects/x"), Some(""));
        assert_eq!(root_of("/elsewhere/y", "n/02-projects/x"), None);
        assert_eq!(root_of("/wsn/02-projects/x", "n/02-projects/x"), None);
    }
}
