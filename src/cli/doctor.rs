//! `resume-tui doctor [--json]`: exit 1 when a finding is an error.

use std::io::Write;
use std::process::ExitCode;

use crate::app::Context;
use crate::cli::DoctorArgs;
use crate::hook::doctor::{self, Status};
use crate::{Error, Result};

pub fn run(ctx: &Context, args: &DoctorArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let own = crate::hook::install::OwnExe::current();
    let report = doctor::run(&ctx.root, &ctx.env, ctx.config.context.window, &own);
    let io = |e: std::io::Error| Error::io("stdout", e);
    if args.json {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| Error::Usage(e.to_string()))?;
        writeln!(out, "{text}").map_err(io)?;
    } else {
        out.write_all(doctor::render(&report).as_bytes())
            .map_err(io)?;
        if let Some(problem) = &ctx.config_problem {
            writeln!(out, "\nconfig: {problem}").map_err(io)?;
        }
    }
    Ok(if report.worst() == Status::Error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
