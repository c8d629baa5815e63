//! `history verify`'s report: a line per damaged part, a line per list of
//! what a writer left or `compact` set aside, then the verdict (`sound`
//! or `DAMAGED`, with the command that sets the damage aside).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::history::store::{self, Part};
use crate::history::verify::Verified;
use crate::numbers::count;
use crate::path_text::shown;

/// Writes what `verify` found in the history shown as `history`. With
/// `quiet` (`--quiet`) the verdict is left out when the history is sound:
/// only what needs a look is written.
pub fn verify(v: &Verified, history: &str, quiet: bool, w: &mut dyn Write) -> std::io::Result<()> {
    for d in &v.damaged {
        writeln!(
            w,
            "damaged: {}: {}; {} not read",
            shown(&d.part.path),
            d.reason,
            d.runs()
        )?;
    }
    for (what, paths) in lists(v).iter().filter(|(_, paths)| !paths.is_empty()) {
        writeln!(w, "{what}: {}", paths.join(", "))?;
    }
    if !quiet || v.damaged() {
        writeln!(w, "{}", verdict(v, &shown(Path::new(history))))?;
    }
    Ok(())
}

/// What is in the history besides its sound parts, each list with what
/// becomes of it.
fn lists(v: &Verified) -> [(String, Vec<String>); 5] {
    let names = |parts: &[Part]| parts.iter().map(Part::name).collect();
    let paths = |paths: &[PathBuf]| paths.iter().map(|p| shown(p)).collect();
    [
        (
            "no checksum (written before nvcmp recorded them; read as they are)".into(),
            names(&v.unchecked),
        ),
        (
            "left by an interrupted merge (the next add or compact removes them)".into(),
            names(&v.stale),
        ),
        (
            "left by a killed add or compaction (the next add or compact removes them)".into(),
            paths(&v.temporaries),
        ),
        (
            "checksum records without their part (the next add or compact removes them)".into(),
            paths(&v.orphan_sums),
        ),
        (
            format!("set aside in {}/ by an earlier compact", store::QUARANTINE),
            names(&v.quarantined),
        ),
    ]
}

/// `DIR: sound: N runs in M parts`, or `DIR: DAMAGED: ...` naming the
/// command that sets the damaged parts aside.
fn verdict(v: &Verified, dir: &str) -> String {
    if v.damaged() {
        format!(
            "{dir}: DAMAGED: {} of {} parts; `nvcmp history compact --history {dir}` sets {} aside",
            v.damaged.len(),
            v.damaged.len() + v.sound.len(),
            if v.damaged.len() == 1 { "it" } else { "them" }
        )
    } else {
        format!(
            "{dir}: sound: {} in {}",
            count(v.runs, "run"),
            count(v.sound.len(), "part")
        )
    }
}
