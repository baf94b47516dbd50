use crate::config::EXCURSION_THRESHOLD_C;

/// True when a reading breaks the cold chain.
pub fn is_excursion(temperature_c: f32) -> bool {
    temperature_c > EXCURSION_THRESHOLD_C
}
