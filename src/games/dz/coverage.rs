//! Clauses of 第2部–第6部 that `judge coverage dz` does not expect a
//! ruling for, each with the reason: definitions with no state change, and
//! rules the module deliberately leaves out (each of those is a
//! `not implemented` error when a scenario needs it).

/// (clause, reason); an entry covers the clause's whole subtree.
pub const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "2.1",
        "definitions of card, owner, player and controller: no state change",
    ),
    ("2.2", "card layout and data: definitions"),
    ("2.3", "card names: definitions"),
    ("2.7", "illustration: no rules meaning"),
    ("2.11", "flavour text: no rules meaning"),
    ("2.14", "expansion number: no rules meaning"),
    ("2.15", "rarity: no rules meaning"),
    ("2.16", "collector number: no rules meaning"),
    ("2.17", "copyright line: no rules meaning"),
    ("2.18", "illustrator credit: no rules meaning"),
    (
        "2.19",
        "禁呪 points: deck construction, not checked by the engine",
    ),
    ("2.25", "public and hidden information: no state change"),
    (
        "3.1",
        "deck construction and preparation before the duel: not simulated",
    ),
    (
        "3.2",
        "start of the duel (opening hands, mulligan): scenarios start in a turn",
    ),
    (
        "3.3.6",
        "infinite loops: decided by the players and the judge (4.18)",
    ),
    ("3.3.8", "tournament time limits: floor rules"),
    ("3.3.9", "tournament time limits: floor rules"),
    ("3.3.10", "tournament time limits: floor rules"),
    ("3.3.11", "tournament time limits: floor rules"),
    ("4.16.4-11", "tournament time limits: floor rules"),
    ("4.16.4-12", "tournament time limits: floor rules"),
    (
        "4.18",
        "infinite loops: decided by the players and the judge",
    ),
    (
        "4.19",
        "reversing illegal actions: the engine rejects them before they happen",
    ),
    (
        "5.6",
        "団結: deck construction only, not checked by the engine",
    ),
];
