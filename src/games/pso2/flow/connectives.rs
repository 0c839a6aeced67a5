//! The connectives between a text's instructions (glossary): 「Aした場合、
//! B」 (GL:“A”した場合、“B”: B only if A was carried out completely),
//! 「AすることでBできる」 (GL:“A”する事でBできる: A may be left undone, and
//! B only follows a done A), 「その後」 (GL:その後) and 「さらに」
//! (GL:さらに): what follows is carried out whether or not A was. The core
//! writes them as markers between the effects (`if_done`, `by_doing`,
//! `then`, `also`); an effect is carried out in printed order (103.4.2.3)
//! unless a closed gate skips it.
//!
//! "Completely carried out" (完全に実行された) is read from the board:
//! the cards the instruction moved out of where they were into the kind of
//! zone it names (a draw: the hand; a destruction: the discard; an
//! exclusion; a card put somewhere) against the number it asked for. A
//! move a replacement effect changed never happened (103.4.3.1), so it
//! does not count; a destroyed card whose move to the discard was replaced
//! is read the same way. An instruction whose completeness that cannot
//! tell (damage, a change of values, "up to" or "all" selectors) is
//! refused as not implemented before it is carried out.

use super::{M, ni, r, reading, reading_on, zn};
use crate::engine::{CardId, Effect, EngineError, PlayerId, Target, Who, ZoneId, player_name};

/// Where the connectives before an instruction leave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Gate {
    /// Carried out (no connective, or its condition held).
    #[default]
    Open,
    /// The A of 「AすることでBできる」, chosen: carried out, and whether it
    /// was done opens or closes the gate for B.
    ByDoingChosen,
    /// Skipped, up to the next 「その後」 or 「さらに」.
    Closed,
}

/// The connectives' state across one text's instructions.
#[derive(Debug, Default)]
pub struct Link {
    gate: Gate,
    /// Whether the instruction carried out last was done completely.
    done: bool,
    /// The instruction carried out last, for the trace.
    last: Option<&'static str>,
}

/// Whether `e` is a connective, not an instruction.
pub fn is_connective(e: &Effect) -> bool {
    matches!(
        e,
        Effect::IfDone | Effect::Then | Effect::Also | Effect::ByDoing
    )
}

/// Reads the true-or-false choice `key`.
fn yes_or_no(m: &mut M, key: &str) -> Result<bool, EngineError> {
    let v = m.choices.require(key, &["true", "false"])?;
    v.as_bool().ok_or_else(|| EngineError::BadChoice {
        choice: key.to_string(),
        value: v.to_string(),
        options: vec!["true".into(), "false".into()],
    })
}

/// Every card's place before an instruction, and the number of cards it
/// must move to be carried out completely.
pub struct Before {
    places: Vec<(CardId, ZoneId, u32)>,
    wanted: usize,
    /// The kind of zone the cards must reach: a move replaced by another
    /// (103.4.3.1, RAID:S4's Boss draw) never happened.
    to: String,
}

impl Link {
    /// Whether the gate skips the next instruction.
    pub fn skips(&self) -> bool {
        self.gate == Gate::Closed
    }

    /// Whether the next instruction's completeness is read (it is the A
    /// of a connective after it, or of `by_doing` before it).
    pub fn measures(&self, rest: &[Effect]) -> bool {
        self.gate == Gate::ByDoingChosen || matches!(rest.first(), Some(Effect::IfDone))
    }

    /// Reaches connective `e` of `source`'s text, read for `master`.
    pub fn reach(
        &mut self,
        m: &mut M,
        master: PlayerId,
        source: &str,
        e: &Effect,
    ) -> Result<(), EngineError> {
        match e {
            Effect::IfDone => self.if_done(m, source),
            Effect::ByDoing => return self.by_doing(m, master, source),
            Effect::Then => self.regardless(m, source, "その後", r::GL_THEN),
            Effect::Also => self.regardless(m, source, "さらに", r::GL_FURTHER),
            _ => {}
        }
        Ok(())
    }

    /// An instruction was carried out; `done`: completely (or unmeasured).
    pub fn carried_out(
        &mut self,
        m: &mut M,
        source: &str,
        word: &'static str,
        done: bool,
    ) -> Result<(), EngineError> {
        self.last = Some(word);
        self.done = done;
        if self.gate != Gate::ByDoingChosen {
            return Ok(());
        }
        if !done {
            self.gate = Gate::Closed;
            m.record(
                "connective",
                format!("{source}: `{word}` (A of 「AすることでBできる」) could not be done completely, so B is not carried out"),
                &[r::GL_BY_DOING, r::GL_IF_DONE],
            );
            return Ok(());
        }
        self.gate = Gate::Open;
        if reading_on(&m.game, reading::BY_DOING_B_CHOSEN_APART) {
            return self.b_chosen_apart(m, source, word);
        }
        m.record(
            "connective",
            format!("{source}: `{word}` (A of 「AすることでBできる」) was done, so B is carried out"),
            &[r::GL_BY_DOING],
        )
        .note(format!(
            "judges' reading: the glossary's 「Bを行う事ができます」 gives B to whoever did A; the choice made was whether to do A. Option `{}` asks again whether to do B",
            reading::BY_DOING_B_CHOSEN_APART
        ));
        Ok(())
    }

    /// Option `reading_by_doing_b_chosen_apart`: A done, the player
    /// chooses whether to do B too (choice `<card>.by_doing_b`).
    fn b_chosen_apart(&mut self, m: &mut M, source: &str, word: &str) -> Result<(), EngineError> {
        let key = format!("{source}.by_doing_b");
        let yes = yes_or_no(m, &key)?;
        if !yes {
            self.gate = Gate::Closed;
        }
        m.record(
            "connective",
            format!(
                "{source}: `{word}` (A of 「AすることでBできる」) was done; the player chooses {} B (choice `{key}`)",
                if yes { "to do" } else { "not to do" }
            ),
            &[r::GL_BY_DOING],
        )
        .note(format!(
            "option `{}`: 「Bを行う事ができます」 read as a second choice, made once A is done",
            reading::BY_DOING_B_CHOSEN_APART
        ));
        Ok(())
    }

    /// 「Aした場合、B」: B only when A was carried out completely.
    fn if_done(&mut self, m: &mut M, source: &str) {
        if self.gate == Gate::Closed {
            // A itself was skipped: it was not carried out.
            m.record(
                "connective",
                format!("{source}: 「…した場合」 after an instruction that was not carried out: what follows is not either"),
                &[r::GL_IF_DONE],
            );
            return;
        }
        let word = self.last.unwrap_or("?");
        let text = if self.done {
            format!(
                "{source}: `{word}` was carried out completely, so what follows 「…した場合」 is carried out"
            )
        } else {
            format!(
                "{source}: `{word}` was not carried out completely, so what follows 「…した場合」 is not carried out (up to 「その後」 or 「さらに」)"
            )
        };
        m.record("connective", text, &[r::GL_IF_DONE]);
        if !self.done {
            self.gate = Gate::Closed;
        }
    }

    /// 「AすることでBできる」: the player chooses whether to do A (choice
    /// `<card>.by_doing`, true or false); not doing it is a choice the
    /// glossary allows, and then B is not carried out.
    fn by_doing(&mut self, m: &mut M, master: PlayerId, source: &str) -> Result<(), EngineError> {
        if self.gate == Gate::Closed {
            return Ok(());
        }
        let key = format!("{source}.by_doing");
        let yes = yes_or_no(m, &key)?;
        let who = player_name(master);
        if yes {
            m.record(
                "connective",
                format!(
                    "{who} chooses to do A of {source}'s 「AすることでBできる」 (choice `{key}`)"
                ),
                &[r::GL_BY_DOING],
            );
            self.gate = Gate::ByDoingChosen;
        } else {
            m.record(
                "connective",
                format!("{who} chooses not to do A of {source}'s 「AすることでBできる」 (choice `{key}`): neither A nor B is carried out"),
                &[r::GL_BY_DOING],
            );
            self.gate = Gate::Closed;
            self.done = false;
        }
        Ok(())
    }

    /// 「その後」「さらに」: what follows is carried out whether or not the
    /// instructions before were.
    fn regardless(&mut self, m: &mut M, source: &str, term: &str, rule: &'static str) {
        let before = match (self.gate, self.done, self.last) {
            (Gate::Closed, _, _) | (_, false, _) => "was not carried out",
            (_, true, Some(_)) => "was carried out",
            (_, true, None) => "was carried out (there was none)",
        };
        m.record(
            "connective",
            format!("{source}: 「{term}」: what follows is carried out whether or not what came before was (it {before})"),
            &[rule],
        );
        self.gate = Gate::Open;
        self.done = true;
    }
}

impl Before {
    /// The board before `e` is carried out by `master`, and the number of
    /// cards it must move; an instruction whose completeness this cannot
    /// read is refused (not implemented).
    pub fn of(m: &M, master: PlayerId, e: &Effect) -> Result<Self, EngineError> {
        let (wanted, to) = wanted(m, master, e)?;
        let places = m
            .game
            .cards
            .iter()
            .map(|(id, c)| (id.clone(), c.zone.clone(), c.incarnation))
            .collect();
        Ok(Before { places, wanted, to })
    }

    /// Whether the instruction moved as many cards as it asked for to
    /// where it said (a token that ceased to exist on the way counts).
    pub fn done(&self, m: &M) -> bool {
        let moved = self
            .places
            .iter()
            .filter(|(id, zone, inc)| {
                m.game.card(id).is_none_or(|c| {
                    (c.zone != *zone || c.incarnation != *inc) && c.zone.kind == self.to
                })
            })
            .count();
        moved >= self.wanted
    }
}

/// The number of cards `e` moves when it is carried out completely.
fn wanted(m: &M, master: PlayerId, e: &Effect) -> Result<(usize, String), EngineError> {
    let players = |who: Who| match who {
        Who::You => 1,
        Who::Opponent => m
            .game
            .player_ids()
            .filter(|&q| super::raid::opposed(&m.game, master, q))
            .count(),
        Who::Both => m.game.players.len(),
    };
    match measure(e) {
        Some((Wanted::Cards(n), to)) => Ok((n, to)),
        Some((Wanted::EachPlayer(n, who), to)) => Ok((n * players(who), to)),
        None => Err(ni(r::GL_IF_DONE, unmeasured(e))),
    }
}

/// What carrying an instruction out completely asks for.
enum Wanted {
    /// That many cards moved.
    Cards(usize),
    /// That many cards moved for each player named.
    EachPlayer(usize, Who),
}

/// What `e` asks for, and the kind of zone it moves cards to, when this
/// module can read it.
fn measure(e: &Effect) -> Option<(Wanted, String)> {
    let n = |x: i64| usize::try_from(x).unwrap_or(0);
    let of_target = |t: &Target| match t {
        Target::This | Target::Random { .. } => Some(Wanted::Cards(1)),
        Target::Chosen {
            count,
            up_to: false,
            ..
        } => Some(Wanted::Cards(*count as usize)),
        _ => None,
    };
    let to = |z: &str| z.to_string();
    match e {
        Effect::Draw { amount, who } => Some((Wanted::EachPlayer(n(*amount), *who), to(zn::HAND))),
        Effect::Put {
            top: Some(k),
            who,
            to: z,
            ..
        } => Some((Wanted::EachPlayer(n(*k), *who), to(z))),
        Effect::Put {
            target: Some(t),
            to: z,
            ..
        } => of_target(t).map(|w| (w, to(z))),
        Effect::Destroy { target: t } => of_target(t).map(|w| (w, to(zn::DISCARD))),
        Effect::Banish { target: t } => of_target(t).map(|w| (w, to(zn::EXCLUDED))),
        Effect::ReturnToHand { target: t } => of_target(t).map(|w| (w, to(zn::HAND))),
        _ => None,
    }
}

/// Why `e`'s completeness cannot be read.
fn unmeasured(e: &Effect) -> String {
    format!(
        "what carrying out `{}` completely means (完全に実行された) before 「…した場合」 or as the A of 「AすることでBできる」: only draws, and cards destroyed, excluded, returned or put, chosen without \"up to\", are read",
        e.word()
    )
}

/// What the loader's check refuses in a text's connectives: an `if_done`
/// with no instruction right before it, a `by_doing` with none right
/// after it, or such an instruction whose completeness cannot be read.
pub fn unsupported(effects: &[Effect]) -> Option<String> {
    for (i, e) in effects.iter().enumerate() {
        let a = match e {
            Effect::IfDone => i.checked_sub(1).and_then(|j| effects.get(j)),
            Effect::ByDoing => effects.get(i + 1),
            _ => continue,
        };
        match a {
            Some(a) if is_connective(a) || measure(a).is_none() => return Some(unmeasured(a)),
            None => {
                return Some(format!(
                    "`{}` needs an instruction {} it (its A)",
                    e.word(),
                    if matches!(e, Effect::IfDone) {
                        "right before"
                    } else {
                        "right after"
                    }
                ));
            }
            Some(_) => {}
        }
    }
    None
}
