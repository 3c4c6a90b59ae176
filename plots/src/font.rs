//! The bundled font. There are no system font libraries on the machines gtsim runs on, so
//! DejaVu Sans (from the `dejavu` crate) is registered with plotters' `ab_glyph` text renderer
//! once per process, under the family name every chart uses.

use std::sync::OnceLock;

use plotters::style::{register_font, Color, FontDesc, FontFamily, FontStyle, TextStyle};

use crate::PlotError;

/// The one font family used for all text.
pub(crate) const FAMILY: &str = "sans-serif";

/// Registers DejaVu Sans (regular and bold) exactly once; later calls return the first outcome.
pub(crate) fn ensure_registered() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular()).is_ok()
            && register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold()).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::Font)
    }
}

/// A regular font of `size` pixels.
///
/// plotters loads a font when a `FontDesc` is built and keeps a failure inside it, so the bundled
/// font is registered here, before any `FontDesc` exists (a panel grid builds its title font
/// before it draws anything).
pub(crate) fn regular(size: f64) -> FontDesc<'static> {
    let _ = ensure_registered();
    FontDesc::new(FontFamily::Name(FAMILY), size, FontStyle::Normal)
}

/// A bold font of `size` pixels (titles).
pub(crate) fn bold(size: f64) -> FontDesc<'static> {
    let _ = ensure_registered();
    FontDesc::new(FontFamily::Name(FAMILY), size, FontStyle::Bold)
}

/// A text style of the regular font in a colour.
pub(crate) fn text<C: Color>(size: f64, color: &C) -> TextStyle<'static> {
    regular(size).color(color)
}

/// How far to move a vertically centred label down so that its capitals and digits, rather than
/// its layout box, sit on the anchor: plotters' `ab_glyph` renderer places glyphs about a fifth
/// of the font size higher than the box it reports.
pub(crate) fn center_correction(size: f64) -> i32 {
    (size * 0.22).round() as i32
}

/// Width and height in pixels of `s` set in `font`, as plotters will lay it out. Falls back to a
/// rough estimate if the font cannot measure (it always can once registered).
pub(crate) fn measure(s: &str, font: &FontDesc<'_>) -> (u32, u32) {
    font.box_size(s).unwrap_or_else(|_| {
        let size = font.get_size();
        ((s.chars().count() as f64 * size * 0.6) as u32, size as u32)
    })
}

/// `s` shortened with an ellipsis so that it fits in `max_width` pixels.
pub(crate) fn fit(s: &str, font: &FontDesc<'_>, max_width: u32) -> String {
    if measure(s, font).0 <= max_width {
        return s.to_string();
    }
    let mut chars: Vec<char> = s.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let candidate: String = chars.iter().collect::<String>() + "…";
        if measure(&candidate, font).0 <= max_width {
            return candidate;
        }
    }
    String::new()
}

/// `s` broken into lines that each fit in `max_width` pixels: at spaces where it can, after a
/// comma, colon or semicolon when one is in the line's second half (so that `24 seeds` or
/// `horizon noise 50` is not split), inside a word only when the word alone is wider. Nothing
/// is dropped: the lines joined with spaces give `s` back (titles are never cut off).
pub(crate) fn wrap(s: &str, font: &FontDesc<'_>, max_width: u32) -> Vec<String> {
    let plain = wrap_at(s, font, max_width, false);
    let phrased = wrap_at(s, font, max_width, true);
    // Breaks after punctuation only where they cost no line.
    if phrased.len() <= plain.len() {
        phrased
    } else {
        plain
    }
}

/// [`wrap`]'s greedy pass: at spaces, and with `phrases` after punctuation when it can.
fn wrap_at(s: &str, font: &FontDesc<'_>, max_width: u32, phrases: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split(' ') {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if measure(&candidate, font).0 <= max_width {
            line = candidate;
            continue;
        }
        // Break after the line's last punctuation instead, when that keeps at least half the
        // line and the rest fits beside the word on the next (not when the line ends at
        // punctuation already).
        let phrase = line
            .rmatch_indices([',', ':', ';'])
            .map(|(i, _)| i + 1)
            .find(|&i| line[i..].starts_with(' '))
            .filter(|&i| phrases && 2 * i >= line.len() && !line.ends_with([',', ':', ';']));
        if let Some(i) = phrase {
            let tail = format!("{} {word}", &line[i + 1..]);
            if measure(&tail, font).0 <= max_width {
                line.truncate(i);
                lines.push(std::mem::replace(&mut line, tail));
                continue;
            }
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // The word alone: break it by characters if it is wider than a line.
        for c in word.chars() {
            let mut longer = line.clone();
            longer.push(c);
            if !line.is_empty() && measure(&longer, font).0 > max_width {
                lines.push(std::mem::replace(&mut line, c.to_string()));
            } else {
                line = longer;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Height in pixels of `lines` lines of `font`, with a small gap between lines.
pub(crate) fn lines_height(lines: usize, font: &FontDesc<'_>) -> u32 {
    let h = measure("Xg", font).1;
    lines as u32 * h + lines.saturating_sub(1) as u32 * (h / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_titles_wrap_without_losing_a_character() {
        ensure_registered().unwrap();
        let f = bold(17.0);
        // The longest titles the shipped scenarios make (a panel of overheads.png or
        // speedup.png, and the timeline), and a word wider than a line.
        for (title, width) in [
            ("sync-overhead: w = 34, d = 6, ordering first_best(0.6), horizon noise 50, 24 seeds", 620),
            ("pmws-uniform: f = 4, seed 1, w = 34, d = 5, first_best(0.6), noise 50; vertical lines: PV nodes completed", 620),
            ("a-scenario-name-that-is-much-longer-than-any-panel-is-wide-because-users-like-names: w = 8", 300),
        ] {
            let lines = wrap(title, &f, width);
            assert!(lines.len() >= 2, "{title}: {lines:?}");
            for l in &lines {
                assert!(measure(l, &f).0 <= width, "{l:?} is wider than {width}");
            }
            let joined: String = lines.concat();
            assert_eq!(joined.replace(' ', ""), title.replace(' ', ""), "{lines:?}");
        }
        assert_eq!(wrap("short", &f, 600), vec!["short"]);
        // A break after a comma, not inside "24 seeds".
        let title = "pmws-uniform: speedup, w = 34, d = 5, ordering first_best(0.6), horizon noise 50, 24 seeds";
        let width = measure(
            "pmws-uniform: speedup, w = 34, d = 5, ordering first_best(0.6), horizon noise 50, 24",
            &f,
        )
        .0;
        assert_eq!(
            wrap(title, &f, width),
            vec![
                "pmws-uniform: speedup, w = 34, d = 5, ordering first_best(0.6), horizon noise 50,",
                "24 seeds"
            ]
        );
        let lines = wrap(title, &f, width * 2 / 3);
        assert!(
            lines
                .iter()
                .all(|l| !l.ends_with(" 24") && !l.ends_with(" noise")),
            "{lines:?}"
        );
        // At every width, never more lines than breaking at spaces alone, and a line that
        // ends at a comma is not broken earlier.
        for w in (120..=width + 40).step_by(7) {
            let lines = wrap(title, &f, w);
            assert!(
                lines.len() <= wrap_at(title, &f, w, false).len(),
                "{w}: {lines:?}"
            );
            assert!(
                lines.iter().all(|l| measure(l, &f).0 <= w),
                "{w}: {lines:?}"
            );
            assert_eq!(
                lines.concat().replace(' ', ""),
                title.replace(' ', ""),
                "{w}"
            );
        }
        let title = title.replace("speedup", "overheads");
        let first = "pmws-uniform: overheads, w = 34, d = 5, ordering first_best(0.6),";
        assert_eq!(wrap(&title, &f, measure(first, &f).0 + 5)[0], first);
    }
}
