use crate::config::Config;

/// Decode a LoRaWAN uplink payload: 2 bytes temperature (0.01 C), 1 byte battery.
pub fn decode(payload: &[u8]) -> Option<(f32, u8)> {
    if payload.len() < 3 { return None; }
    let raw = i16::from_be_bytes([payload[0], payload[1]]);
    Some((raw as f32 / 100.0, payload[2]))
}

pub async fn listen(_cfg: &Config) {}
