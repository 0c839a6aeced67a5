//! Every rule id of the Shadowverse EVOLVE comprehensive rules (Ver.1.7.0)
//! that the SVE module can cite. Numbered sub-items use flat ids
//! (`1.2.1` item 1 = `1.2.1.1`). `tests/engine_citations.rs` checks that
//! each id in [`CITABLE`] exists in the bundled rulebook.

macro_rules! rules {
    ($($name:ident = $id:literal;)*) => {
        $(#[doc = concat!("Clause ", $id, ".")] pub const $name: &str = $id;)*
        /// Every id above.
        pub const CITABLE: &[&str] = &[$($id),*];
    };
}

rules! {
    WIN_LOSS = "1.2.1";
    LOSS_DEFENSE = "1.2.1.1";
    LOSS_DECK = "1.2.1.2";
    DRAW_SIMULTANEOUS = "1.2.2";
    CONCEDE = "1.2.3";
    CONCEDE_AT_ONCE = "1.2.3.1";
    EFFECT_WIN_LOSS = "1.2.4";
    IMPOSSIBLE = "1.3.2";
    PROHIBITION_WINS = "1.3.3";
    NEGATIVE_AS_ZERO = "1.3.2.2.1";
    BOUND_CLAMP = "1.3.2.4";
    CONTINUOUS_NUMERIC_ORDER = "10.9.1.4";
    // Conditional abilities (`condition` in the effect language), not implemented.
    CONDITIONAL_TEXT = "10.3.3";
    // 特定表記: the effect actions of card text; the effect words the
    // module implements are those of chapter 5 below.
    SPECIFIC_NOTATION = "5.1.1";
    // Card information (カードの情報): an SVE card prints one description,
    // so an alternate face (core `CardDef::alternate`) is not implemented.
    CARD_INFO = "2";
    // Face-down cards on the field (`turn_face`): SVE places public-zone
    // cards face up (4.2.3.3) and has no rule turning one; not implemented.
    FACE_UP_IN_PUBLIC = "4.2.3.3";
    // Costs paid while resolving (pay_life / pay_cost / set_value: not implemented).
    RESOLUTION_COST = "10.4.7";
    PP_BOUNDS = "3.2.4";
    MAX_PP_BOUNDS = "3.2.4.1";
    PP_MAX_BOUND = "3.2.4.2";
    EP = "3.2.5";
    NEW_OBJECT = "4.1.4";
    ENTER_RESERVED = "4.2.2.3";
    FIELD_LIMIT = "4.4.4.1";
    FIELD_OVER_LIMIT = "4.4.4.2";
    HAND_LIMIT = "4.7.3.1";
    DESTROY = "5.5.1";
    BANISH = "5.6.1";
    SHUFFLE = "5.8.1";
    SHUFFLE_SMALL = "5.8.1.1";
    DRAW = "5.9.1";
    DRAW_EMPTY = "5.9.1.1";
    DAMAGE = "5.13.1";
    DAMAGE_NEGATIVE = "5.13.1.1";
    DAMAGE_NOT_DEALT = "5.13.1.2";
    RECOVER_PP = "5.14.1";
    RECOVER_PP_CAP = "5.14.1.1";
    EVOLVE = "5.15.1";
    EVOLVE_BY_EFFECT = "5.15.1.1";
    EVOLVE_EVENT = "5.15.1.2";
    FACE_UP_NOT_IN_DECK = "4.6.3";
    UNSPECIFIED_ZONE = "4.1.6";
    PUT = "5.4.1";
    DISCARD = "5.11.1";
    EX_LIMIT = "4.8.3.1";
    EX_OVER_LIMIT = "4.8.3.2";
    TAKE = "5.21.1";
    TAKE_OWNER = "5.21.1.1";
    TAKE_NOT_ENTERED = "5.21.2";
    TAKE_LEAVES_TO_OWNER = "5.21.3";
    NOT_ENTERING = "10.7.4.3";
    CONTROLLER = "3.1.2";
    STACK = "13.3.2";
    COMBO = "13.2.1";
    SPELLCHAIN = "13.3.1";
    AWAKENING = "13.4.1";
    NECROCHARGE = "13.5.1";
    CRIMSON = "13.5.2";
    DISABLED_NO_CHOICE = "10.3.2";
    ACTIVATED_MASTER = "3.1.2.2";
    ACT_COST = "10.4.6";
    ACT_COST_SAME_TURN = "10.4.6.1";
    COST_OTHER_NUMBER = "10.4.5";
    COST_PAYMENT = "10.4.2";
    COST_CHANGE = "10.4.4.1";
    COST_SET_FIRST = "10.10.2.4";
    REPLACEMENT_ORDER = "10.10.2";
    CONTINUOUS = "10.1.1.3";
    ABILITY_ON_FIELD = "10.3.5";
    RANDOM = "5.18.1";
    EVOLVE_INFO = "5.15.2";
    EVOLVE_SAME_OBJECT = "5.15.3";
    EVOLVE_LEAVE = "5.15.4";
    PHASES = "7.1.2";
    START_MAX_PP = "7.2.1";
    START_PP = "7.2.2";
    START_STAND = "7.2.3";
    START_DRAW = "7.2.4";
    START_NO_FIRST_DRAW = "7.2.4.1";
    START_CHECK = "7.2.5";
    MAIN_TRIGGER = "7.3.1";
    MAIN_CHECK = "7.3.2";
    MAIN_CHOICE = "7.3.3";
    MAIN_AFTER = "7.3.4";
    END_TRIGGER = "7.4.1";
    END_CHECK_1 = "7.4.2";
    END_WARD = "7.4.3";
    END_CHECK_2 = "7.4.4";
    END_QUICK = "7.4.5";
    END_QUICK_AFTER = "7.4.6";
    END_HAND_LIMIT = "7.4.7";
    END_DURATIONS = "7.4.8";
    END_TURN = "7.4.9";
    ACTION_WHOLE = "8.1.2";
    PLAY_CARD = "8.2.1";
    ACTIVATE = "8.3.1";
    EVOLVE_ONCE = "8.3.2";
    ATTACK = "8.4.1";
    ATTACKER = "8.4.2";
    ATTACKER_LEGAL = "8.4.2.1";
    TARGET = "8.4.3";
    TARGET_LEGAL = "8.4.3.1";
    TARGET_NONE = "8.4.3.2";
    ATTACK_ENGAGE = "8.4.4";
    ATTACK_EVENT = "8.4.5";
    COMBAT_STATE = "8.4.5.1";
    ATTACK_CHECK_1 = "8.4.6";
    ATTACK_QUICK = "8.4.7";
    ATTACK_QUICK_AFTER = "8.4.8";
    COMBAT_DAMAGE = "8.4.9";
    COMBAT_DAMAGE_BACK = "8.4.9.1";
    FOUGHT = "8.4.9.2";
    ATTACK_CHECK_2 = "8.4.10";
    ATTACK_END = "8.4.11";
    TOKEN_CREATE = "9.1.2";
    TOKEN_ZONES = "9.1.4";
    TOKEN_ERASED = "9.1.4.3";
    PP_COST = "10.4.4";
    CHECK_TIMING = "10.5.2";
    CHECK_RULES = "10.5.2.1";
    CHECK_TP = "10.5.2.2";
    CHECK_NTP = "10.5.2.3";
    CHECK_END = "10.5.2.4";
    PLAY_SPECIFY = "10.6.2.1";
    PLAY_TARGETS = "10.6.2.3";
    PLAY_TARGETS_MAX = "10.6.2.3.1";
    PLAY_TARGETS_UP_TO = "10.6.2.3.2";
    PLAY_TARGETS_NONE = "10.6.2.3.3";
    PLAY_COST = "10.6.2.5";
    PLAY_COST_UNPAID = "10.6.2.5.3";
    PLAY_FIELD_FULL = "10.6.2.6";
    PLAY_EVENT = "10.6.2.7";
    PLAY_RESOLVE = "10.6.2.8";
    RESOLVE_PERMANENT = "10.6.2.8.1";
    RESOLVE_TEXT = "10.6.2.8.2";
    RESOLVE_LEFTOVER = "10.6.2.8.3";
    TRIGGER_PENDING = "10.7.2";
    TRIGGER_PLAY = "10.7.3";
    TRIGGER_MANDATORY = "10.7.3.1";
    TRIGGER_UNPLAYABLE = "10.7.3.2";
    TRIGGER_FIELD_INFO = "10.7.4.1.2";
    LEAVE_FIELD_INFO = "10.7.4.1";
    RULE_PROCESS_ONLY_AT_CHECK = "11.1.2";
    RULE_PROCESS_SIMULTANEOUS = "11.1.3";
    DEFEAT_DEFENSE = "11.2.1";
    DEFEAT_DECK = "11.2.2";
    DESTROY_DEFENSE = "11.3.1";
    DESTROY_BANE = "11.3.2";
    FIELD_OVERFLOW = "11.4.1";
    EX_OVERFLOW = "11.5.1";
    EVOLVE_ORPHAN = "11.6.1";
    EVOLVE_STACKED = "11.6.2";
    STACK_EMPTY = "11.7.1";
    RACE_ORPHAN = "11.8.1";
    PP_OVERFLOW = "11.9.1";
    EVOLVE_ABILITY = "12.2.2";
    EVOLVE_EP = "12.2.3";
    QUICK = "12.3.1";
    QUICK_OWN_TURN = "12.3.5";
    FANFARE = "12.4.3";
    LAST_WORDS = "12.5.3";
    ON_EVOLVE = "12.6.2";
    ON_ATTACK = "12.7.2";
    WARD = "12.8.2";
    STORM = "12.9.2";
    RUSH = "12.10.2";
    ASSAIL = "12.11.2";
    INTIMIDATE = "12.12.2";
    DRAIN = "12.13.2";
    DRAIN_ATTACK_DAMAGE = "12.13.2.1";
    BANE = "12.14.2";
    AURA = "12.15.2";
}
