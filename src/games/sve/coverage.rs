//! The clauses of chapters 5 and 7–15 that `judge coverage sve` does not
//! expect a passing ruling for, each with the reason. An entry covers its
//! whole subtree; a clause a passing ruling asserts is reported as covered
//! even inside an excepted subtree.
//!
//! Two kinds of reason: **not state-changing** (definitions, how text is
//! printed, physical handling) and **not implemented** (the engine or the
//! effect language does not model it; where a scenario could reach it the
//! engine stops with a `not implemented` error or the loader refuses the
//! word).

const DEF: &str = "not state-changing: a definition or a classification";
const ICON: &str = "not state-changing: how the text is printed (icons, notation)";
const PHYSICAL: &str = "not state-changing: physical handling at the table";

/// `(clause id, reason)`.
pub const EXCEPTIONS: &[(&str, &str)] = &[
    // Chapter 5: 特定表記.
    ("5.1.1", DEF),
    (
        "5.2.1.2.1",
        "not state-changing on its own: an X the text defines is written as the amount it defines (`for_each` for a count); X the player decides is 5.2.1.2.2",
    ),
    (
        "5.3.1",
        "not state-changing on its own: stand/act instructions are `set_state engaged` (1.3.2.1 when already so)",
    ),
    (
        "5.4.2",
        "not implemented: token names matched against an appendix list (a token is created from a definition in the scenario, `summon`)",
    ),
    ("5.4.3", DEF),
    ("5.9.2", DEF),
    (
        "5.9.3",
        "not state-changing beyond 5.9.1: \"draw up to N\" is `draw_up_to`, the count given as a choice",
    ),
    ("5.15.1.3", PHYSICAL),
    ("5.17.1.1", ICON),
    (
        "5.23",
        "not implemented: references to original (元の) information",
    ),
    // 5.24.1-5.24.3 and 5.24.3.2 (a type change, the rest kept, evolving a
    // card that is not a follower) are asserted by rulings.
    (
        "5.24.2.1",
        "not state-changing on its own: a card that is not a follower has no attack or defense to read; rule processes and attacks look only at followers",
    ),
    (
        "5.24.3.1",
        "not implemented: text naming the card's own type (「この(種類)」) is not told apart from other text",
    ),
    ("5.26", DEF),
    // Chapter 7: the turn.
    ("7.1.1", DEF),
    (
        "7.1.2",
        "not state-changing: the order of the phases, asserted through 7.2-7.4",
    ),
    // Chapter 8.
    ("8.1.1", DEF),
    (
        "8.1.2",
        "not state-changing on its own: the general principle; each impossible action is rejected citing its own item's rule",
    ),
    // Chapter 9: tokens.
    ("9.1.1", DEF),
    (
        "9.1.2.3",
        "not implemented: token information from an appendix list; a scenario defines each token",
    ),
    ("9.1.5", PHYSICAL),
    // Chapter 10.
    ("10.1", DEF),
    ("10.2", DEF),
    ("10.3.1", DEF),
    (
        "10.3.4",
        "not implemented: text working in zones other than the field (hand, cemetery)",
    ),
    ("10.4.1", DEF),
    (
        "10.4.3",
        "not state-changing on its own: an unnamed \"your\" in a cost is the master's (how the engine pays every cost)",
    ),
    (
        "10.4.7.1",
        "not implemented: a cost that covers only a part of an ability's text (to a paragraph's end or a Choose option's); a cost in an automatic ability covers its whole effect (10.4.7.3)",
    ),
    (
        "10.4.7.2",
        "not implemented: an optional cost 「プレイする際、(処理):(効果)」 other than Earth Rite's (10.6.2.2.1)",
    ),
    (
        "10.4.7.4",
        "not implemented: a cost in the text of a spell or other non-automatic ability (X:Y), paid as it resolves",
    ),
    ("10.5.1", DEF),
    ("10.6.1", DEF),
    (
        "10.6.2.1.1",
        "not state-changing: revealing a hidden card's ability",
    ),
    (
        "10.6.2.1.2",
        "not state-changing on its own: a play that cannot be made properly is rewound, citing the step that fails (10.6.2.3.3, 10.6.2.5.3, 10.6.2.6)",
    ),
    (
        "10.6.2.1.3",
        "not implemented: effects applied to a card in the EX area carried through play",
    ),
    (
        "10.6.2.2",
        "not state-changing beyond its sub-clauses: Earth Rite's optional additional cost (10.6.2.2.1), X (10.6.2.2.2) and a Choose with its number (10.6.2.2.3, 5.17.3, 5.17.3.1) are covered",
    ),
    (
        "10.6.2.3.2.1",
        "not implemented: allocating values among targets",
    ),
    (
        "10.6.2.4",
        "not implemented: allocating values among targets",
    ),
    (
        "10.6.2.5.1",
        "not implemented: replacement effects on cost actions",
    ),
    (
        "10.6.2.8.1.1",
        "not implemented: effects applied to a card in the resolution area carried onto the field",
    ),
    ("10.7.1", DEF),
    ("10.8.1", DEF),
    (
        "10.10.3",
        "not implemented: replacements on cards entering the field or EX area",
    ),
    // Chapter 11.
    ("11.1.1", DEF),
    (
        "11.3.2.1",
        "not implemented: effects referring to destruction by an ability",
    ),
    (
        "11.6.3",
        "cannot arise: an evolve card is attached to one card in this model",
    ),
    // Chapter 12: keywords.
    ("12.1.1", DEF),
    ("12.2.1", DEF),
    ("12.3.1", DEF),
    ("12.3.2", DEF),
    ("12.3.3.1", ICON),
    ("12.4.1", DEF),
    ("12.4.2", ICON),
    ("12.5.1", DEF),
    ("12.5.2", ICON),
    ("12.6.1", DEF),
    ("12.7.1", DEF),
    ("12.8.1", DEF),
    ("12.9.1", DEF),
    ("12.10.1", DEF),
    ("12.11.1", DEF),
    ("12.12.1", DEF),
    ("12.13.1", DEF),
    (
        "12.13.3",
        "not state-changing in this model: a keyword is listed once per card",
    ),
    ("12.14.1", DEF),
    ("12.15.1", DEF),
    // Chapter 13: class keywords.
    ("13.1.1", DEF),
    ("13.2.1.1", DEF),
    ("13.3.1.1", DEF),
    ("13.3.2.1", DEF),
    (
        "13.3.2.4",
        "not implemented: \"Stack +N\" choosing the Stack card (use `add_counter`)",
    ),
    ("13.3.3.1", DEF),
    ("13.4.1.1", DEF),
    ("13.5.1.1", DEF),
    ("13.5.2.1", DEF),
    // Chapter 14: titles.
    ("14.1.1", DEF),
    (
        "14.2.1.1.1",
        "not state-changing in this model: the count is written in the cost (`put` to `race` with `top`)",
    ),
    (
        "14.2.1.3",
        "not state-changing on its own: the race card of a card that left is moved by rule process 11.8.1",
    ),
    ("14.2.2.1", DEF),
    ("14.2.2.2", ICON),
    ("14.2.4.1", DEF),
    // Chapter 15.
    ("15.1.1", DEF),
    ("15.1.2.1", DEF),
    ("15.1.3", PHYSICAL),
    ("15.1.4", PHYSICAL),
];
