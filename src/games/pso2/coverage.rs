//! The clauses `judge coverage pso2` does not expect a passing ruling for,
//! each with the reason. An entry covers its whole subtree; a clause a
//! passing ruling cites is reported as covered even inside an excepted
//! subtree.
//!
//! Two kinds of reason: **not state-changing** (definitions, principles of
//! reading, deck construction outside the game) and **not implemented**
//! (the engine or the effect language does not model it; where a scenario
//! can reach it, the engine stops with a `not implemented` error).

const DEF: &str = "not state-changing: a definition or classification";
const ZONE_DEF: &str = "not state-changing: a zone's definition (the scenario vocabulary declares it: zone specs with visibility and order)";
const WORDING: &str = "not state-changing: how card text is worded; scenario cards are written in the effect language";
const FORMAT: &str = "not state-changing: how an ability is printed; scenario cards write it as a trigger, a `condition`, a `cost` and effects";

/// `(clause id, reason)`.
pub const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "100.1",
        "not state-changing: what players bring (100.1.1, a black Player card uses no Mag, is checked at setup)",
    ),
    ("101.1", DEF),
    (
        "101.2",
        "not state-changing: who players are and the words 自分, 対戦相手, 味方, 相手 (the engine applies them in targets and attacks)",
    ),
    (
        "101.3.1",
        "not state-changing: owner defined; cards go to their owner's zones (moves.rs)",
    ),
    (
        "102.2.1",
        "not state-changing: a courtesy (asking to shuffle the opponent's deck); the shuffle is seeded",
    ),
    (
        "102.3.1",
        "not state-changing: which face of the double-sided Player card is shown",
    ),
    (
        "103.1.1",
        "not state-changing: a principle; card text is applied as written in the effect language",
    ),
    (
        "103.2",
        "not state-changing: what actions and their sources are (103.2.1.2 and 103.2.3 are covered)",
    ),
    ("103.3", DEF),
    ("103.4.1", DEF),
    ("103.4.2.1", DEF),
    ("103.4.2.2", DEF),
    ("103.7.1.1.1", DEF),
    (
        "103.7.2",
        "not state-changing: the heading of a figure lost in the document",
    ),
    ("200.1", DEF),
    ("201.1", DEF),
    ("201.2", ZONE_DEF),
    (
        "201.6",
        "not state-changing: self-made Player cards before the game",
    ),
    (
        "201.7",
        "not state-changing: self-made Player cards before the game",
    ),
    ("202.1", DEF),
    ("203.1", ZONE_DEF),
    (
        "203.3",
        "not state-changing: self-made Mag cards before the game",
    ),
    (
        "203.4.1",
        "not state-changing: where the evolution cards start (a scenario puts them in zone `mag`, unattached)",
    ),
    (
        "203.4.2",
        "not state-changing: the evolution cards are public (zone `mag` is public)",
    ),
    ("204.1", DEF),
    ("205.1", DEF),
    ("205.2", DEF),
    ("205.4.1", DEF),
    (
        "206.1",
        "not state-changing: where the name and title are printed (206.1.2, the title counted in deck building, is asserted)",
    ),
    ("207.1", DEF),
    (
        "207.2",
        "not state-changing: white is no colour; a white card has no colour requirement (209.1.2 rulings use white cards)",
    ),
    ("208.1.1", DEF),
    ("208.1.3", WORDING),
    ("209.2", DEF),
    (
        "210",
        "not state-changing: 種別 has no rules meaning of its own (210.1.1); races are `traits`",
    ),
    (
        "211",
        "not state-changing: the layout of the text box (211.2.2 effect order is applied, 103.4.2.3)",
    ),
    ("213.1", DEF),
    ("215.1.1", DEF),
    ("215.1.2", DEF),
    ("300.1", DEF),
    ("301.1", DEF),
    ("302.1", DEF),
    ("400.1", DEF),
    ("400.2", ZONE_DEF),
    (
        "400.3",
        "not state-changing: zone sizes are public (snapshots show every zone's count)",
    ),
    ("400.4", ZONE_DEF),
    ("400.5", ZONE_DEF),
    ("401.1", ZONE_DEF),
    ("402.1", ZONE_DEF),
    ("402.2", "not state-changing: what a draw is (moves::draw)"),
    ("402.4", "not state-changing: a player may order their hand"),
    ("403.1.1", ZONE_DEF),
    ("403.1.2", ZONE_DEF),
    ("403.1.3", ZONE_DEF),
    ("403.3", "not state-changing: the field has no card limit"),
    ("404.1", ZONE_DEF),
    ("404.2.1", ZONE_DEF),
    ("404.3", "not state-changing: PP has no card limit"),
    ("404.4", "not state-changing: PP order is free"),
    ("404.5.1", DEF),
    ("405", ZONE_DEF),
    ("406.1", ZONE_DEF),
    ("500.2", DEF),
    ("500.3", DEF),
    (
        "506.1",
        "not state-changing: an introductory sentence with no list after it",
    ),
    // The glossary, entry by entry: a term that is only wording or a
    // definition, or the glossary line of a rule asserted under its
    // numbered clause. Entries a passing ruling asserts are not listed.
    ("GL:“『(A):(B)』”", FORMAT),
    ("GL:“『(A)/(B):(C)』”", FORMAT),
    (
        "GL:“±X/±X”",
        "not state-changing: the notation of `buff` (attack and HP changed together, 215.3)",
    ),
    (
        "GL:相手",
        "not state-changing: what 相手 designates, a selector's `side` `opponent` (101.2.2; in the raid RAID:S9, asserted)",
    ),
    (
        "GL:味方",
        "not state-changing: what 味方 designates, a selector's `side` `you` (101.2.2; in the raid RAID:S1, RAID:S2, asserted)",
    ),
    ("GL:与える", DEF),
    (
        "GL:置かれる",
        "not state-changing: a card put in a zone goes to its owner's (101.3.1, moves.rs; asserted under 400.6 and GL:捨てる)",
    ),
    ("GL:カードタイプ", DEF),
    ("GL:解決", DEF),
    (
        "GL:クラス",
        "not state-changing: class is a 種別 (208, asserted)",
    ),
    (
        "GL:自身",
        "not state-changing: the card itself, the selector `this`",
    ),
    (
        "GL:自分",
        "not state-changing: the owner word 自分, `side` `you` (101.2.1)",
    ),
    (
        "GL:他の",
        "not state-changing: 「他の」, the filter's `other`",
    ),
    (
        "GL:前列/後列",
        "not state-changing: the rows are one zone, the field (403.1.4); row moves are asserted under 215.4 and 213.3",
    ),
    ("GL:それ", WORDING),
    ("GL:対象", DEF),
    ("GL:対象を選ぶ", DEF),
    ("GL:発動", DEF),
    ("GL:場", ZONE_DEF),
    (
        "GL:“ルール:”",
        "not state-changing: a rules note printed on a card is no ability; scenario cards carry none",
    ),
    (
        "GL:「」",
        "not state-changing: 「」 names a card name without its title, the filter's `name` (206.2, asserted)",
    ),
    (
        "GL:《》",
        "not state-changing: 《》 names a 種別, the filter's `trait` (208, asserted)",
    ),
    (
        "RAID:P2",
        "not state-changing: each seat brings its deck (the scenario's zones)",
    ),
    (
        "RAID:F2",
        "not state-changing: seating (the Boss is the last seat; turns pass seat by seat)",
    ),
];
