//! A panel grid drawn as the first chart of a process (its own test binary, one test): plotters
//! loads fonts when a font description is built, so the bundled font must be registered before
//! the grid builds its title font. This once failed with "FontUnavailable".

use plots::{panels, LineChart, Series};

#[test]
fn a_panel_grid_can_be_the_first_chart_of_a_process() {
    let dir = std::env::temp_dir().join(format!("gtsim-panels-first-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir); // a stale folder of an earlier process with this id
    std::fs::create_dir_all(&dir).unwrap();
    let chart = LineChart {
        title: "one".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        series: vec![Series {
            label: "s".into(),
            points: vec![(1.0, 1.0), (2.0, 3.0)],
            ..Default::default()
        }],
        integer_x: true,
        log2_x: false,
    };
    let path = dir.join("grid.png");
    panels(&path, "A grid with a title", &[chart.clone(), chart], 2).unwrap();
    assert_eq!(&std::fs::read(&path).unwrap()[..4], b"\x89PNG");
    std::fs::remove_dir_all(&dir).unwrap();
}
