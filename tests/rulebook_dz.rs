//! Dimension Zero 総合ルール 19.00: counts, golden texts and irregularities.

use tcg_judge::bundle;

#[test]
#[ignore]
fn dump() {
    let b = bundle::game("dz").unwrap();
    std::fs::write("/tmp/dz.json", serde_json::to_string_pretty(b).unwrap()).unwrap();
}
