//! The setup QR code, drawn by this server as an SVG `data:` URL. The otpauth URI
//! holds the secret, so it must never be sent to a third-party QR service.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

pub fn data_url(text: &str) -> anyhow::Result<String> {
    // Level M survives a little glare or a scuffed screen and keeps the code small.
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|error| anyhow::anyhow!("cannot encode the QR code: {error}"))?;
    let image = code.render::<svg::Color<'_>>().min_dimensions(200, 200).quiet_zone(true).build();
    Ok(format!("data:image/svg+xml;base64,{}", STANDARD.encode(image)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_is_an_inline_svg() {
        let url = data_url("otpauth://totp/backoffice:admin?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").unwrap();
        let encoded = url.strip_prefix("data:image/svg+xml;base64,").unwrap();
        let svg = String::from_utf8(STANDARD.decode(encoded).unwrap()).unwrap();
        assert!(svg.contains("<svg"));
        assert!(!svg.contains("GEZDGNBV"), "the secret is drawn, not written");
    }
}
