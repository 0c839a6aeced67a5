//! Scenario loading and running: any bytes as a scenario file, through the
//! same user-file normalisation as `judge run`, then the engine.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tcg_judge::{bundle, scenario};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let text = bundle::normalize_user_text(text.to_string());
    if let Ok(loaded) = scenario::load::load_str("fuzz.json", &text, None) {
        let _ = loaded.module.run(loaded.game.clone(), &loaded.actions);
    }
});
