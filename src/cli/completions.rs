//! `resume-tui completions SHELL`: the completion script, from the same clap
//! definitions as the parser, with two clap_complete faults worked around.
//!
//! - Hidden flags (`--render-once`) are listed by every shell's generator: the
//!   script is generated from the command line without the hidden top-level flags.
//! - Bash completes nothing past the subcommand when the program's name holds a
//!   hyphen (clap-rs/clap#6421): the loop that follows the words names its state
//!   `resume__tui__subcmd__list`, the cases it is matched against
//!   `resume__subcmd__tui__subcmd__list`. The cases are renamed to the loop's spelling.

use std::io::Write;

use clap::{Command, CommandFactory};
use clap_complete::Shell;

use super::Cli;

pub const BIN: &str = "resume-tui";

pub fn write(shell: Shell, out: &mut dyn Write) -> std::io::Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut completable(), BIN, &mut script);
    if shell == Shell::Bash {
        let script = String::from_utf8_lossy(&script);
        let misspelt = BIN.replace('-', "__subcmd__");
        out.write_all(
            script
                .replace(&misspelt, &BIN.replace('-', "__"))
                .as_bytes(),
        )
    } else {
        out.write_all(&script)
    }
}

/// The command line as completions offer it: the top-level flags that `--help`
/// shows, and every subcommand.
fn completable() -> Command {
    let full = Cli::command();
    let visible = full.get_arguments().filter(|a| !a.is_hide_set()).cloned();
    Command::new(BIN)
        .version(env!("CARGO_PKG_VERSION"))
        .args(visible)
        .subcommands(full.get_subcommands().cloned())
}
