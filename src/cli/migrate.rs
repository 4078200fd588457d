//! `resume-tui migrate nexus|resumption`: run a migration over the workspace and
//! print its report (docs/migration.md). Exit 1 when a write failed.

use std::io::Write;
use std::process::ExitCode;

use super::show::project_name_under_root;
use super::{MigrateCommand, MigrateResumptionArgs};
use crate::app::Context;
use crate::core::migrate::report::Report;
use crate::core::model::ProjectKind;
use crate::core::workspace::find_project;
use crate::io::discover::{FileKind, discover};
use crate::io::load::load_workspace;
use crate::io::migrate::{Options, migrate_nexus, migrate_resumptions};
use crate::{Error, Result};

pub fn run(ctx: &Context, command: &MigrateCommand, out: &mut dyn Write) -> Result<ExitCode> {
    let (report, json) = match command {
        MigrateCommand::Nexus(args) => {
            let options = Options {
                dry_run: args.dry_run,
                backup: args.backup,
            };
            (migrate_nexus(&ctx.root, &ctx.env, options), args.json)
        }
        MigrateCommand::Resumption(args) => {
            let options = Options {
                dry_run: args.dry_run,
                backup: args.backup,
            };
            let sources = orchestration_files(ctx, args)?;
            (migrate_resumptions(&ctx.root, &sources, options), args.json)
        }
    };
    print(out, &report, json)?;
    Ok(if report.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The ORCHESTRATION.yaml files to migrate: every one found (`--all`), or the one of
/// the named project.
fn orchestration_files(ctx: &Context, args: &MigrateResumptionArgs) -> Result<Vec<String>> {
    if args.all {
        let found = discover(&ctx.root, &ctx.env);
        return Ok(found
            .of_kind(FileKind::Orchestration)
            .map(|f| f.rel.clone())
            .collect());
    }
    let Some(name) = &args.project else {
        return Err(Error::Usage(
            "name a project, or pass --all for every ORCHESTRATION.yaml".to_string(),
        ));
    };
    let ws = load_workspace(&ctx.root, &ctx.env, ctx.now, &ctx.config);
    let name = project_name_under_root(ctx, name);
    let project = find_project(&ws, &name)?;
    if project.kind != ProjectKind::Jerry {
        return Err(Error::Usage(format!(
            "{} is a Nexus project ({}); use `resume-tui migrate nexus`",
            project.id, project.source
        )));
    }
    Ok(vec![project.source.clone()])
}

fn print(out: &mut dyn Write, report: &Report, json: bool) -> Result<()> {
    let written = if json {
        let text = serde_json::to_string_pretty(&report.to_json())
            .map_err(|e| Error::Usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")
    } else {
        write!(out, "{}", report.to_text())
    };
    written.map_err(|e| Error::io("standard output", e))
}
