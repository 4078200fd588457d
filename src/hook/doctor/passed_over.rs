//! Why a folder above this one that looks like a workspace is not the hooks'
//! (another user's, or writable by others: `io::discover::trust`).

use std::path::{Path, PathBuf};

use super::{Finding, Status, finding};
use crate::io::discover::root::passed_over;
use crate::io::env::Env;

pub fn check(root: &Path, env: &Env, findings: &mut Vec<Finding>) {
    let home = env.get("HOME").map(PathBuf::from);
    for (dir, why) in passed_over(root, home.as_deref()) {
        findings.push(finding(
            Status::Warning,
            "workspace",
            &format!(
                "{} looks like a workspace but the hooks pass it over: {why}",
                dir.display()
            ),
        ));
    }
}
