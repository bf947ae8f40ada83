"""Voice-biomarker pipeline in the style of sensein/b2aiprep: extract_single() writes one <recording>_features.pt per wav with torch.save (torchaudio spectrogram, openSMILE and Praat descriptors, the extraction configs and, with with_sensitive=True, audio_path, speaker embedding and transcription), then the derived-dataset step (spectrogram_generator) reads every file back with a bare torch.load(pt_file) to train a small task classifier on the spectrograms; under the weights_only=True default the loader refuses the pathlib.PosixPath stored as features["audio_path"]
source: https://github.com/sensein/b2aiprep/pull/151
reported-error: (the PR, "Add weights_only=False in torch.load", branch 142-set-weights_only-to-false, carries no traceback) the feature files could no longer be read by create_derived_dataset / spectrogram_generator / feature_extraction_generator with torch >= 2.6; the PR changed each torch.load(pt_file) to torch.load(pt_file, weights_only=False)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL pathlib.PosixPath was not an allowed global by default. ... at line 99
root-cause: line 79
expect: DG011
"""
import tempfile
import wave
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(7)
bids_dir = Path(tempfile.mkdtemp()) / "bids"
RESAMPLE_RATE = 16000
TASKS = ["Prolonged-vowel", "Rainbow-passage", "Maximum-phonation-time"]

# ---- a small BIDS-like tree of 16-bit PCM recordings ----
for p in range(6):
    for s, task in enumerate(TASKS):
        audio_dir = bids_dir / f"sub-{p:03d}" / "ses-01" / "audio"
        audio_dir.mkdir(parents=True, exist_ok=True)
        t = np.arange(int(RESAMPLE_RATE * rng.uniform(1.0, 1.4))) / RESAMPLE_RATE
        f0 = rng.uniform(100, 220)
        if task == "Rainbow-passage":
            sig = np.sin(2 * np.pi * f0 * (1 + 0.2 * np.sin(2 * np.pi * 3 * t)) * t) * (np.sin(2 * np.pi * 4 * t) > 0)
        elif task == "Prolonged-vowel":
            sig = sum(np.sin(2 * np.pi * k * f0 * t) / k for k in range(1, 6))
        else:
            sig = np.sin(2 * np.pi * f0 * t) * np.exp(-t)
        pcm = (0.3 * sig / np.abs(sig).max() * 32767 + rng.normal(0, 200, t.size)).astype(np.int16)
        with wave.open(str(audio_dir / f"sub-{p:03d}_ses-01_task-{task}_rec.wav"), "wb") as w:
            w.setnchannels(1), w.setsampwidth(2), w.setframerate(RESAMPLE_RATE), w.writeframes(pcm.tobytes())


def load_audio(wav_path):
    with wave.open(str(wav_path), "rb") as w:
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
        return torch.from_numpy(pcm.astype(np.float32) / 32768.0), w.getframerate()


def extract_features_from_audios(waveform, sample_rate, torch_config):
    """senselab stand-in: torchaudio spectrogram, openSMILE functionals and Praat descriptors."""
    window = torch.hann_window(torch_config["win_length"])
    spec = torch.stft(waveform, n_fft=torch_config["n_fft"], hop_length=torch_config["hop_length"],
                      win_length=torch_config["win_length"], window=window, return_complex=True).abs() ** 2
    frames = waveform[: waveform.numel() // 400 * 400].view(-1, 400)
    return {
        "torchaudio": {"spectrogram": spec},
        "opensmile": {"loudness_sma3_amean": float(frames.pow(2).mean().sqrt()),
                      "F0semitoneFrom27.5Hz_sma3nz_amean": float(spec.argmax(0).float().mean())},
        "praat_parselmouth": {"duration": waveform.numel() / sample_rate,
                              "mean_f0_hertz": float(spec[1:].argmax(0).float().median()) * sample_rate / torch_config["n_fft"]},
    }


def extract_single(wav_path, with_sensitive):
    wav_path = Path(wav_path)
    features_dir = wav_path.parent.parent / "audio"
    save_to = features_dir / f"{wav_path.stem}_features.pt"
    waveform, sampling_rate = load_audio(wav_path)
    win_length, hop_length = 25, 10
    torch_config = {"n_fft": (win_length * sampling_rate) // 1000, "win_length": (win_length * sampling_rate) // 1000,
                    "hop_length": (hop_length * sampling_rate) // 1000, "n_mels": 60, "n_mfcc": 60}
    parsel_mouth_config = {"time_step": hop_length / 1000, "window_length": win_length / 1000, "plugin": "serial"}
    features = extract_features_from_audios(waveform, sampling_rate, torch_config)
    features["parselmouth_config"] = parsel_mouth_config
    features["torch_config"] = torch_config
    features["is_speech_task"] = any(task in wav_path.name for task in ["Rainbow-passage"])
    features["sample_rate"] = sampling_rate
    features["duration"] = len(waveform) / sampling_rate
    features["sensitive_features"] = None
    if with_sensitive:
        features["audio_path"] = wav_path  # root-cause
        features["speaker_embedding"] = torch.randn(192)
        features["transcription"] = None
        features["sensitive_features"] = ["audio_path", "speaker_embedding", "transcription"]
    torch.save(features, save_to)
    return save_to


audio_paths = sorted(bids_dir.glob("sub-*/ses-*/audio/*.wav"))
for wav_path in audio_paths:
    extract_single(wav_path, with_sensitive=True)
print(f"extracted features for {len(audio_paths)} recordings")


def spectrogram_generator(audio_paths):
    """Load audio features from individual files and yield dicts for the derived dataset."""
    audio_paths = sorted(audio_paths, key=lambda x: (x.stem.split("_")[0], x.stem.split("_")[2]))
    for wav_path in audio_paths:
        output = {}
        pt_file = wav_path.parent / f"{wav_path.stem}_features.pt"
        features = torch.load(pt_file)  # fails-here
        output["participant_id"] = wav_path.stem.split("_")[0][4:]
        output["task_name"] = wav_path.stem.split("_")[2][5:]
        spectrogram = features["torchaudio"]["spectrogram"]
        spectrogram = 10.0 * torch.log10(torch.maximum(spectrogram, torch.tensor(1e-10)))
        spectrogram = torch.maximum(spectrogram, spectrogram.max() - 80)
        spectrogram = spectrogram.numpy().astype(np.float32)
        output["spectrogram"] = spectrogram[:, ::2]
        yield output


rows = list(spectrogram_generator(audio_paths))


class SpectrogramDataset(torch.utils.data.Dataset):
    def __init__(self, rows, n_frames=48):
        self.rows, self.n_frames = rows, n_frames

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        spec = torch.from_numpy(self.rows[i]["spectrogram"])[:, : self.n_frames]
        spec = F.pad(spec, (0, self.n_frames - spec.shape[1]), value=float(spec.min()))
        return (spec - spec.mean()) / (spec.std() + 1e-6), TASKS.index(self.rows[i]["task_name"])


train_ids = {f"{p:03d}" for p in range(4)}
train = SpectrogramDataset([r for r in rows if r["participant_id"] in train_ids])
test = SpectrogramDataset([r for r in rows if r["participant_id"] not in train_ids])
model = nn.Sequential(nn.Unflatten(1, (1, 201)), nn.Conv2d(1, 8, 5, stride=2), nn.ReLU(),
                      nn.AdaptiveAvgPool2d((8, 4)), nn.Flatten(), nn.Linear(8 * 32, len(TASKS)))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(15):
    for x, y in torch.utils.data.DataLoader(train, batch_size=4, shuffle=True):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
with torch.no_grad():
    x, y = next(iter(torch.utils.data.DataLoader(test, batch_size=len(test))))
    print(f"held-out task accuracy {(model(x).argmax(1) == y).float().mean().item():.2f}")
