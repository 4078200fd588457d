//! Who is editing, and whether a new file of theirs can take the owner and group of
//! the file it replaces: chown(2)'s rules, judged before anything is written.
//!
//! A process with `CAP_CHOWN` (root, usually) may give a file any owner and group;
//! any other may give a file it owns only its own groups (the effective one and
//! the supplementary ones), and no other owner. A new file gets the editor's
//! effective group, or its folder's group when the folder has the set-group-ID bit.

use std::path::Path;

/// The editing process's identity, as chown(2) judges it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editor {
    /// The effective user ID.
    pub uid: u32,
    /// The effective group ID.
    pub gid: u32,
    /// The supplementary groups.
    pub groups: Vec<u32>,
    /// `CAP_CHOWN` in the effective set: any owner and group may be kept.
    pub may_chown: bool,
}

/// What a replace would take from a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    Owner,
    Group,
}

impl Editor {
    /// What a new file of the editor's, created in group `new_gid`, could not be
    /// given of owner `uid` and group `gid`; `None` when it can have both.
    pub fn would_lose(&self, new_gid: u32, uid: u32, gid: u32) -> Option<Lost> {
        if self.may_chown {
            None
        } else if uid != self.uid {
            Some(Lost::Owner)
        } else if gid == new_gid || gid == self.gid || self.groups.contains(&gid) {
            None
        } else {
            Some(Lost::Group)
        }
    }

    /// The running process.
    #[cfg(unix)]
    pub fn current() -> Editor {
        use rustix::process;
        let uid = process::geteuid().as_raw();
        let groups = process::getgroups()
            .map(|groups| groups.into_iter().map(|g| g.as_raw()).collect())
            .unwrap_or_default();
        let may_chown = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|status| cap_chown_in(&status))
            .unwrap_or(uid == 0);
        Editor {
            uid,
            gid: process::getegid().as_raw(),
            groups,
            may_chown,
        }
    }
}

/// Whether a `/proc/<pid>/status` text gives `CAP_CHOWN` (bit 0 of `CapEff`);
/// `None` when it does not say.
pub fn cap_chown_in(status: &str) -> Option<bool> {
    let mask = status
        .lines()
        .find_map(|line| line.strip_prefix("CapEff:"))?
        .trim();
    u64::from_str_radix(mask, 16).ok().map(|mask| mask & 1 == 1)
}

/// The name `/etc/group` (its text) gives group `gid`: the first line
/// `name:password:gid:members` with that gid.
pub fn group_name_in(text: &str, gid: u32) -> Option<&str> {
    text.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let id = fields.nth(1)?;
        (!name.is_empty() && id.trim().parse::<u32>().ok() == Some(gid)).then_some(name)
    })
}

/// `root (gid 0)`, or `gid 4242` for a group `/etc/group` does not name. (The
/// binary is linked statically, so the system's name services are not asked.)
pub fn describe_group(gid: u32) -> String {
    let text = crate::io::load::read_bytes_capped(Path::new("/etc/group"), 1 << 20)
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    match text.as_deref().and_then(|text| group_name_in(text, gid)) {
        Some(name) => format!("{name} (gid {gid})"),
        None => format!("gid {gid}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(uid: u32, gid: u32, groups: &[u32]) -> Editor {
        Editor {
            uid,
            gid,
            groups: groups.to_vec(),
            may_chown: false,
        }
    }

    #[test]
    fn a_file_of_ones_own_in_ones_own_group_keeps_both() {
        assert_eq!(user(1001, 1001, &[]).would_lose(1001, 1001, 1001), None);
    }

    #[test]
    fn a_group_the_editor_is_in_is_kept() {
        let tester = user(1001, 1001, &[1001, 4242]);
        assert_eq!(tester.would_lose(1001, 1001, 4242), None);
        // The effective group counts even when getgroups leaves it out.
        assert_eq!(user(1001, 4242, &[]).would_lose(1001, 1001, 4242), None);
    }

    #[test]
    fn a_group_the_editor_is_not_in_is_lost() {
        // The tester's case: tester:root 0664, edited by tester (not in root).
        let tester = user(1001, 1001, &[1001]);
        assert_eq!(tester.would_lose(1001, 1001, 0), Some(Lost::Group));
    }

    #[test]
    fn a_set_group_id_folder_gives_new_files_its_group() {
        let tester = user(1001, 1001, &[1001]);
        assert_eq!(tester.would_lose(0, 1001, 0), None);
    }

    #[test]
    fn another_users_file_loses_its_owner_first() {
        let tester = user(1001, 1001, &[0]);
        assert_eq!(tester.would_lose(1001, 0, 0), Some(Lost::Owner));
        assert_eq!(tester.would_lose(1001, 0, 1001), Some(Lost::Owner));
    }

    #[test]
    fn cap_chown_keeps_anything() {
        let root = Editor {
            may_chown: true,
            ..user(0, 0, &[])
        };
        assert_eq!(root.would_lose(0, 1001, 4242), None);
        // Root without CAP_CHOWN is judged like anyone else.
        assert_eq!(user(0, 0, &[]).would_lose(0, 1001, 4242), Some(Lost::Owner));
    }

    #[test]
    fn cap_chown_is_bit_zero_of_the_effective_set() {
        let status = |eff: &str| {
            format!(
                "Name:\tx\nCapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\nCapEff:\t{eff}\n"
            )
        };
        assert_eq!(cap_chown_in(&status("000001ffffffffff")), Some(true));
        assert_eq!(cap_chown_in(&status("0000000000000000")), Some(false));
        assert_eq!(cap_chown_in(&status("00000000a80425fa")), Some(false));
        assert_eq!(cap_chown_in(&status("00000000a80425fb")), Some(true));
        assert_eq!(cap_chown_in("Name:\tx\n"), None);
        assert_eq!(cap_chown_in("CapEff:\tnot hex\n"), None);
    }

    #[test]
    fn group_names_come_from_the_group_file() {
        let text = "root:x:0:\n# odd line\n::7:\nwheel:x:10:tester,ops\nusers:x:100:\n";
        assert_eq!(group_name_in(text, 0), Some("root"));
        assert_eq!(group_name_in(text, 10), Some("wheel"));
        assert_eq!(group_name_in(text, 100), Some("users"));
        assert_eq!(group_name_in(text, 7), None);
        assert_eq!(group_name_in(text, 4242), None);
        assert_eq!(group_name_in("", 0), None);
    }
}
