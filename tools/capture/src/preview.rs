//! Downscale a PNG so its longest edge fits a bound, streaming rows so
//! memory stays proportional to one output row band, not the whole image.

use bp_sdk::ToolError;

/// A re-encoded, smaller PNG.
pub struct Scaled {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

fn err(e: impl std::fmt::Display) -> ToolError {
    ToolError::Internal(format!("preview: {e}"))
}

/// Box-filter `png` down so neither side exceeds `edge`.
pub fn scale_png(png: &[u8], edge: u32) -> Result<Scaled, ToolError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(err)?;
    let (w, h) = (reader.info().width, reader.info().height);
    let (color, _) = reader.output_color_type();
    let channels: usize = match color {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Grayscale => 1,
        png::ColorType::Indexed => return Err(err("indexed colour after expansion")),
    };
    // An integer factor keeps the filter exact and cheap.
    let factor = w.max(h).div_ceil(edge).max(1);
    let (ow, oh) = (w.div_ceil(factor), h.div_ceil(factor));
    let mut out = Vec::with_capacity((ow * oh) as usize * channels);
    let mut sums = vec![0u32; ow as usize * channels];
    let mut counts = vec![0u32; ow as usize];
    let mut rows_in_band = 0;
    let mut y = 0;
    while let Some(row) = reader.next_row().map_err(err)? {
        let data = row.data();
        for x in 0..w as usize {
            let ox = x / factor as usize;
            counts[ox] += 1;
            for c in 0..channels {
                sums[ox * channels + c] += u32::from(data[x * channels + c]);
            }
        }
        rows_in_band += 1;
        y += 1;
        if rows_in_band == factor || y == h {
            for ox in 0..ow as usize {
                let n = counts[ox].max(1);
                for c in 0..channels {
                    out.push((sums[ox * channels + c] / n) as u8);
                }
            }
            sums.iter_mut().for_each(|s| *s = 0);
            counts.iter_mut().for_each(|c| *c = 0);
            rows_in_band = 0;
        }
    }
    let mut encoded = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut encoded, ow, oh);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(err)?;
        writer.write_image_data(&out).map_err(err)?;
    }
    Ok(Scaled {
        png: encoded,
        width: ow,
        height: oh,
    })
}
