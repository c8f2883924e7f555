//! Colours: sRGB triples, hex text, CIELAB and the ΔE distance used to compare tiles.
//!
//! Tiles are compared in CIELAB (D65) with the CIE76 distance ΔE = Euclidean distance in
//! L\*a\*b\*: a difference of about 2.3 is just noticeable, the NRK colours are 40 or more
//! apart, so a tolerance of tens of units absorbs JPEG artefacts and scaling while still
//! telling the tile colours apart.

/// An sRGB colour, 8 bits per channel.
pub type Rgb = [u8; 3];

/// A colour in CIELAB (L\* in 0..=100).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lab {
    pub l: f32,
    pub a: f32,
    pub b: f32,
}

impl Lab {
    /// The CIE76 colour difference ΔE\*ab.
    pub fn delta(self, other: Lab) -> f32 {
        let (dl, da, db) = (self.l - other.l, self.a - other.a, self.b - other.b);
        (dl * dl + da * da + db * db).sqrt()
    }
}

/// sRGB component (0..=255) to linear light.
fn linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// sRGB to CIELAB under D65.
pub fn lab(c: Rgb) -> Lab {
    let (r, g, b) = (linear(c[0]), linear(c[1]), linear(c[2]));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f32| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    Lab {
        l: 116.0 * fy - 16.0,
        a: 500.0 * (fx - fy),
        b: 200.0 * (fy - fz),
    }
}

/// `#rrggbb`, lower case.
pub fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// Parses `#rrggbb` or `rrggbb`.
pub fn parse_hex(s: &str) -> Option<Rgb> {
    let s = s.trim().trim_start_matches('#');
    if s.len() != 6 || !s.is_ascii() {
        return None;
    }
    let v = u32::from_str_radix(s, 16).ok()?;
    Some([(v >> 16) as u8, (v >> 8) as u8, v as u8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_of_white_black_and_a_primary() {
        let w = lab([255, 255, 255]);
        assert!((w.l - 100.0).abs() < 0.1 && w.a.abs() < 0.1 && w.b.abs() < 0.1);
        assert!(lab([0, 0, 0]).l.abs() < 0.1);
        // sRGB red is about L 53.2, a 80.1, b 67.2.
        let r = lab([255, 0, 0]);
        assert!((r.l - 53.2).abs() < 0.5 && (r.a - 80.1).abs() < 1.0 && (r.b - 67.2).abs() < 1.0);
    }

    #[test]
    fn hex_round_trip() {
        assert_eq!(hex([0x7a, 0x7a, 0x7a]), "#7a7a7a");
        assert_eq!(parse_hex("#FF9C54"), Some([0xff, 0x9c, 0x54]));
        assert_eq!(parse_hex("12345"), None);
    }
}
