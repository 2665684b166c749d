//! The recipe of each demo clip ([`recipe`]): the `espeak-ng` and `sox` steps that make its
//! sound, and for videos the ffmpeg frame source and length. The first twenty clips' recipes
//! are written here; the later ones are read from `server/demo/clips/recipes.txt` ([`data`]).

mod data;

use super::Cmd;

/// One step that makes an intermediate WAV file in the clip's work folder.
pub(super) enum Step {
    /// `espeak-ng` speech, padded by sox afterwards.
    Speak {
        voice: &'static str,
        pitch: u32,
        speed: u32,
        text: &'static str,
        out: &'static str,
    },
    /// `sox -R -D` with these whitespace-separated arguments (none contains a space).
    Sox(&'static str),
    /// `sox -R -D` with these arguments (made by the data recipes).
    SoxArgs(Vec<String>),
}

impl Step {
    pub(super) fn command(&self) -> Cmd {
        match self {
            Step::Speak {
                voice,
                pitch,
                speed,
                text,
                out,
            } => Cmd {
                program: "espeak-ng",
                args: vec![
                    "-v".into(),
                    (*voice).into(),
                    "-p".into(),
                    pitch.to_string(),
                    "-s".into(),
                    speed.to_string(),
                    "-w".into(),
                    (*out).into(),
                    // Ends the options, so a text can never be read as one.
                    "--".into(),
                    (*text).into(),
                ],
            },
            Step::Sox(args) => Cmd {
                program: "sox",
                args: ["-R", "-D"]
                    .into_iter()
                    .chain(args.split_whitespace())
                    .map(String::from)
                    .collect(),
            },
            Step::SoxArgs(args) => Cmd {
                program: "sox",
                args: ["-R", "-D"]
                    .into_iter()
                    .map(String::from)
                    .chain(args.iter().cloned())
                    .collect(),
            },
        }
    }
}

/// How one clip is made: steps ending in `snd.wav` (22050 Hz mono, espeak-ng's own rate, so
/// sox can join speech and tones), and for videos a lavfi frame source and a length.
pub(super) struct Recipe {
    pub(super) sound: Vec<Step>,
    pub(super) video: Option<(&'static str, &'static str)>,
    /// Whether sox itself writes an `.ogg` (Vorbis) or `.wav` clip from `snd.wav`, sparing
    /// ffmpeg's start-up (about 0.1 s a clip); the first twenty clips keep their ffmpeg
    /// encodings (Opus), byte for byte.
    pub(super) sox_audio: bool,
}

/// The format every intermediate sox output is written in.
macro_rules! wav {
    () => {
        "-r 22050 -c 1 -b 16"
    };
}

fn speak(voice: &'static str, pitch: u32, speed: u32, text: &'static str) -> Vec<Step> {
    vec![
        Step::Speak {
            voice,
            pitch,
            speed,
            text,
            out: "speech.wav",
        },
        Step::Sox(concat!("speech.wav ", wav!(), " snd.wav pad 0.2 0.3")),
    ]
}

fn audio(sound: Vec<Step>) -> Option<Recipe> {
    Some(Recipe {
        sound,
        video: None,
        sox_audio: false,
    })
}

fn video(sound: Vec<Step>, source: &'static str, seconds: &'static str) -> Option<Recipe> {
    Some(Recipe {
        sound,
        video: Some((source, seconds)),
        sox_audio: false,
    })
}

/// The recipe of each manifest id. Sound first, then (for videos) frames from an ffmpeg lavfi
/// source: no text is drawn, so no font is needed.
pub(super) fn recipe(id: &str) -> Option<Recipe> {
    audio_recipe(id)
        .or_else(|| video_recipe(id))
        .or_else(|| data::recipe(id).ok())
}

/// Every recipe of the data file, or the first line that cannot be read (for the tests).
#[cfg(test)]
pub(super) fn data_recipes() -> Result<Vec<(&'static str, Recipe)>, String> {
    data::all()
}

/// The recipes of the audio clips.
fn audio_recipe(id: &str) -> Option<Recipe> {
    match id {
        "k01" => audio(speak("cmn-latn-pinyin", 20, 105, "唉，我太难了。")),
        "k02" => audio(speak("cmn-latn-pinyin", 85, 210, "真香！真香！")),
        "k03" => audio(speak("cmn-latn-pinyin", 70, 160, "一，二，三，茄子！")),
        "k04" => audio(speak("cmn-latn-pinyin", 60, 165, "恭喜发财，红包拿来！")),
        "k05" => audio(speak("en", 40, 150, "Houston, we have a problem.")),
        "k06" => audio(speak("en", 90, 210, "Wow! I did not see that coming!")),
        "k07" => audio(speak("en", 45, 140, "This is fine. This is fine.")),
        "k08" => audio(vec![
            Step::Sox(concat!(
                "-r 22050 -c 2 -n ",
                wav!(),
                " clink.wav synth 0.35 sine 2637 sine 3951 remix - fade q 0.002 0.35 0.33 vol 0.4"
            )),
            Step::Speak {
                voice: "en",
                pitch: 70,
                speed: 170,
                text: "Cheers!",
                out: "speech.wav",
            },
            Step::Sox(concat!(
                "clink.wav clink.wav speech.wav ",
                wav!(),
                " snd.wav pad 0.2 0.3"
            )),
        ]),
        "k09" => audio(speak("es", 75, 170, "¡Feliz cumpleaños!")),
        "k10" => audio(speak("es", 25, 120, "Hasta la vista, baby.")),
        "k11" => audio(speak("es", 50, 160, "No pasa nada, tranquilo.")),
        "k17" => audio(vec![
            Step::Sox(concat!(
                "-r 22050 -c 2 -n ",
                wav!(),
                " ding.wav synth 0.6 sine 659.25 sine 1318.5 remix - fade q 0.005 0.6 0.55 vol 0.6"
            )),
            Step::Sox(concat!(
                "-r 22050 -c 2 -n ",
                wav!(),
                " dong.wav synth 1.3 sine 523.25 sine 1046.5 remix - fade q 0.005 1.3 1.2 vol 0.6"
            )),
            Step::Sox(concat!(
                "ding.wav dong.wav ",
                wav!(),
                " snd.wav pad 0.2 0.3"
            )),
        ]),
        "k18" => audio(vec![Step::Sox(concat!(
            "-n ",
            wav!(),
            " snd.wav synth 1.6 brownnoise lowpass 500 fade q 0.01 1.6 1.4 gain -n -3 pad 0.2 0.3"
        ))]),
        "k19" => audio(vec![
            Step::Sox(concat!(
                "-n ",
                wav!(),
                " dot.wav synth 0.1 sine 700 fade q 0.005 0.1 0.005 vol 0.5 pad 0 0.1"
            )),
            Step::Sox(concat!(
                "-n ",
                wav!(),
                " dash.wav synth 0.3 sine 700 fade q 0.005 0.3 0.005 vol 0.5 pad 0 0.1"
            )),
            Step::Sox(concat!("-n ", wav!(), " gap.wav trim 0 0.2")),
            Step::Sox(concat!(
                "dot.wav dot.wav dot.wav gap.wav dash.wav dash.wav dash.wav gap.wav \
                 dot.wav dot.wav dot.wav gap.wav gap.wav gap.wav ",
                wav!(),
                " sos.wav"
            )),
            Step::Sox(concat!("sos.wav ", wav!(), " snd.wav pad 0.3 0")),
        ]),
        "k20" => audio(speak("en", 15, 130, "Nope. Nope. Nope.")),
        _ => None,
    }
}

/// The recipes of the video clips.
fn video_recipe(id: &str) -> Option<Recipe> {
    match id {
        "k12" => video(
            speak("es", 50, 150, "El color es rojo. Rojo."),
            "color=c=0xd01818:s=320x240:r=12",
            "3",
        ),
        "k13" => video(
            vec![Step::Sox(concat!(
                "-n ",
                wav!(),
                " snd.wav synth 3 sine 400-1200 vol 0.5 fade q 0.05 3 0.1"
            ))],
            "testsrc2=s=320x240:r=12",
            "3",
        ),
        "k14" => video(
            vec![
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " hit.wav synth 0.5 sine 120-40 fade q 0.003 0.5 0.45 vol 0.9"
                )),
                // Five hits at 0.5, 1.0, … 2.5 s; the screen flashes on each.
                Step::Sox(concat!("hit.wav ", wav!(), " snd.wav repeat 4 pad 0.5 0.5")),
            ],
            "color=c=0x404080:s=320x240:r=12,\
             eq=brightness='if(between(t,0.49,2.7)*lt(mod(t+0.01,0.5),0.18),0.6,0)':eval=frame",
            "3.5",
        ),
        "k15" => video(
            vec![
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t1.wav synth 0.45 sawtooth 293.66 lowpass 1400 fade q 0.03 0.45 0.08 vol 0.4"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t2.wav synth 0.45 sawtooth 277.18 lowpass 1400 fade q 0.03 0.45 0.08 vol 0.4"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t3.wav synth 0.45 sawtooth 261.63 lowpass 1400 fade q 0.03 0.45 0.08 vol 0.4"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t4.wav synth 1.4 sawtooth 246.94 lowpass 1400 tremolo 6 40 \
                     fade q 0.03 1.4 0.4 vol 0.4"
                )),
                Step::Sox(concat!(
                    "t1.wav t2.wav t3.wav t4.wav ",
                    wav!(),
                    " snd.wav pad 0.2 0.3"
                )),
            ],
            "life=s=80x60:r=12:mold=10:ratio=0.1:seed=7:\
             life_color=0x80ff80:death_color=0x202040,scale=320:240:flags=neighbor",
            "3.5",
        ),
        "k16" => video(
            vec![
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n1.wav synth 0.18 triangle 523.25 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n2.wav synth 0.18 triangle 659.25 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n3.wav synth 0.18 triangle 783.99 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n4.wav synth 0.18 triangle 1046.5 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-r 22050 -c 3 -n ",
                    wav!(),
                    " chord.wav synth 1.2 triangle 523.25 triangle 659.25 triangle 783.99 \
                     remix - fade q 0.01 1.2 0.6 vol 0.5"
                )),
                Step::Sox(concat!(
                    "n1.wav n2.wav n3.wav n4.wav chord.wav ",
                    wav!(),
                    " snd.wav pad 0.2 0.3"
                )),
            ],
            "mandelbrot=s=320x240:r=12:start_scale=2.5",
            "2.5",
        ),
        _ => None,
    }
}
