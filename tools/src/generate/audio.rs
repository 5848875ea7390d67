//! `audio/clip-<n>.wav`: the short chimes every generated episode's enclosure points
//! at, so a player of the demo plays something real. A few clips serve the whole
//! corpus (a show keeps one), which keeps the corpus small at any size.
//!
//! Each clip is three notes of a major arpeggio over a root of its own, 16-bit PCM mono
//! at 16 kHz, with a short attack and an exponential decay per note: 2.7 s and
//! 86 KB. The samples are computed, never drawn from a random stream, so the bytes are
//! the same on every run and machine.

use std::f64::consts::TAU;
use std::path::Path;

use super::{GenerateError, io_error};

/// How many clips there are; each show draws one.
pub const CLIPS: u64 = 8;
const SAMPLE_RATE: u32 = 16_000;
const NOTE_SECONDS: f64 = 0.9;
const NOTES: usize = 3;
/// Roots of the clips, in Hz (C4 up a major scale and beyond).
const ROOTS: [f64; CLIPS as usize] = [
    261.63, 293.66, 329.63, 349.23, 392.00, 440.00, 493.88, 523.25,
];
/// Semitones above the root of each note: a major arpeggio.
const STEPS: [f64; NOTES] = [0.0, 4.0, 7.0];

/// The path of clip `clip` under the output directory.
pub fn clip_path(clip: u64) -> String {
    format!("audio/clip-{clip}.wav")
}

/// Bytes of every clip's file (all clips have one length).
pub fn clip_bytes() -> u64 {
    44 + 2 * samples_per_clip() as u64
}

fn samples_per_clip() -> usize {
    (f64::from(SAMPLE_RATE) * NOTE_SECONDS) as usize * NOTES
}

/// Writes every clip under `out/audio/`.
pub fn write_clips(out: &Path) -> Result<(), GenerateError> {
    let directory = out.join("audio");
    std::fs::create_dir_all(&directory).map_err(|source| io_error(&directory, source))?;
    for clip in 0..CLIPS {
        let path = out.join(clip_path(clip));
        std::fs::write(&path, wav(ROOTS[clip as usize]))
            .map_err(|source| io_error(&path, source))?;
    }
    Ok(())
}

/// A RIFF/WAVE file of the arpeggio over `root`.
fn wav(root: f64) -> Vec<u8> {
    let per_note = samples_per_clip() / NOTES;
    let mut samples = Vec::with_capacity(samples_per_clip());
    for step in STEPS {
        let frequency = root * 2f64.powf(step / 12.0);
        for n in 0..per_note {
            let t = n as f64 / f64::from(SAMPLE_RATE);
            let attack = (t / 0.01).min(1.0);
            let envelope = attack * (-3.0 * t).exp();
            // A touch of the octave for a bell-like tone.
            let tone = (TAU * frequency * t).sin() + 0.3 * (TAU * 2.0 * frequency * t).sin();
            samples.push((tone / 1.3 * envelope * 0.5 * f64::from(i16::MAX)) as i16);
        }
    }
    let data_len = (samples.len() * 2) as u32;
    let mut bytes = Vec::with_capacity(44 + data_len as usize);
    bytes.extend_from_slice(b"RIFF");
    bytes.extend_from_slice(&(36 + data_len).to_le_bytes());
    bytes.extend_from_slice(b"WAVEfmt ");
    bytes.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    bytes.extend_from_slice(&1u16.to_le_bytes()); // PCM
    bytes.extend_from_slice(&1u16.to_le_bytes()); // mono
    bytes.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    bytes.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes()); // bytes a second
    bytes.extend_from_slice(&2u16.to_le_bytes()); // block align
    bytes.extend_from_slice(&16u16.to_le_bytes()); // bits a sample
    bytes.extend_from_slice(b"data");
    bytes.extend_from_slice(&data_len.to_le_bytes());
    for sample in samples {
        bytes.extend_from_slice(&sample.to_le_bytes());
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clip_is_a_pcm_wave_file_of_its_stated_length_that_is_not_silent() {
        let bytes = wav(ROOTS[0]);
        assert_eq!(bytes.len() as u64, clip_bytes());
        assert_eq!(&bytes[0..4], b"RIFF");
        assert_eq!(&bytes[8..16], b"WAVEfmt ");
        let riff_len = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
        assert_eq!(riff_len as usize, bytes.len() - 8);
        let data_len = u32::from_le_bytes(bytes[40..44].try_into().unwrap());
        let seconds = f64::from(data_len) / f64::from(SAMPLE_RATE * 2);
        assert!((2.5..3.0).contains(&seconds), "{seconds} s");
        let loudest = bytes[44..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]).unsigned_abs())
            .max()
            .unwrap();
        assert!(loudest > 8_000, "peak {loudest}");
    }
}
