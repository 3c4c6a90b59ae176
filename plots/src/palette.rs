//! Fixed colours: one palette for line series and one colour per time category, chosen to be
//! told apart on white, in print and by most colour-blind readers (after Okabe & Ito).

use plotters::style::RGBColor;
use sim_core::Category;

/// Line-series colours, indexed by [`Series::color`](crate::Series::color) modulo the length:
/// blue, vermillion, bluish green, reddish purple, orange, sky blue, near-black, brown (Okabe &
/// Ito), then indigo, olive, wine and lavender (after Paul Tol's muted scheme) for charts of many
/// lines, such as a comparison of a dozen schemes.
pub const PALETTE: [(u8, u8, u8); 12] = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (51, 51, 51),
    (140, 86, 75),
    (51, 34, 136),
    (153, 153, 51),
    (136, 34, 85),
    (117, 112, 179),
];

/// The colour of palette entry `index` (wrapping around).
pub(crate) fn series_color(index: usize) -> RGBColor {
    let (r, g, b) = PALETTE[index % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The fixed colour of a time category in timelines: search green, message blue, interrupt
/// orange-red, wait_reply purple, memory ochre, idle_sync light grey (idle is the background of the picture,
/// so it is the quietest colour).
pub fn category_color(category: Category) -> (u8, u8, u8) {
    match category {
        Category::Search => (76, 160, 72),
        Category::Message => (48, 110, 200),
        Category::Interrupt => (232, 96, 28),
        Category::WaitReply => (142, 82, 176),
        Category::IdleSync => (214, 214, 214),
        Category::Memory => (196, 160, 0),
    }
}

pub(crate) fn category_rgb(category: Category) -> RGBColor {
    let (r, g, b) = category_color(category);
    RGBColor(r, g, b)
}

/// Grid lines and other furniture.
pub(crate) const GRID: RGBColor = RGBColor(225, 225, 225);
pub(crate) const AXIS: RGBColor = RGBColor(80, 80, 80);
pub(crate) const TEXT: RGBColor = RGBColor(20, 20, 20);
pub(crate) const MUTED_TEXT: RGBColor = RGBColor(110, 110, 110);
