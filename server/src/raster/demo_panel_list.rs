//! The demo comics' panels, embedded: one line per comic (its id and panel numbers), written by
//! `scripts/demo/draw_panels.py` from the manifest; see [`super::demo_panel_files`].

/// Every demo panel as `(png name, svg bytes)`, in manifest order.
pub(super) const FILES: &[(&str, &[u8])] = demo_panels![
    "c01": [1 2 3 4 5 6 7],
    "c02": [1 2 3 4],
    "c03": [1 2 3 4 5 6 7 8],
    "c04": [1 2 3 4 5],
    "c05": [1 2 3 4],
    "c06": [1 2 3 4],
    "c07": [1 2 3],
    "c08": [1 2 3 4 5 6 7],
    "c09": [1 2 3 4],
    "c10": [1 2 3 4 5],
    "c11": [1 2 3 4],
    "c12": [1 2],
    "c13": [1 2 3],
    "c14": [1 2 3],
    "c15": [1 2 3 4 5 6 7],
    "c16": [1 2 3 4 5],
    "c17": [1 2 3],
];
