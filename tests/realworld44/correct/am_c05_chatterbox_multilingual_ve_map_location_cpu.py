"""Multilingual text-to-speech with Chatterbox (resemble-ai/chatterbox as in am05: ve.pt and s3gen.pt released from CUDA, the multilingual model loaded with device="cpu") with pull request #410's from_local, which picks map_location = torch.device('cpu') for "cpu"/"mps" (None on CUDA) and passes it to the ve.pt, s3gen.pt and conds.pt loads; on a CUDA device map_location stays None and the storages go to the GPU they were saved from
source: https://github.com/resemble-ai/chatterbox/pull/410
reported-error: (none filed; the fixed situation of am05)
outcome: ok
root-cause: -
expect: none
"""
import contextlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from safetensors.torch import load_file as load_safetensors
from safetensors.torch import save_file as save_safetensors

S3_SR = 16_000
S3GEN_SR = 24_000
SUPPORTED_LANGUAGES = {"en": "English", "fr": "French", "de": "German", "ja": "Japanese", "zh": "Chinese"}


# ---- models/voice_encoder/voice_encoder.py (reduced: mel frames from a framed STFT, 3-layer LSTM)
@dataclass
class VoiceEncConfig:
    num_mels: int = 40
    ve_hidden_size: int = 64
    speaker_embed_size: int = 32


class VoiceEncoder(nn.Module):
    def __init__(self, hp=VoiceEncConfig()):
        super().__init__()
        self.hp = hp
        self.lstm = nn.LSTM(self.hp.num_mels, self.hp.ve_hidden_size, num_layers=3, batch_first=True)
        self.proj = nn.Linear(self.hp.ve_hidden_size, self.hp.speaker_embed_size)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, mels: torch.FloatTensor):
        _, (hidden, _) = self.lstm(mels)
        raw_embeds = self.proj(hidden[-1])
        return raw_embeds / torch.linalg.norm(raw_embeds, dim=1, keepdim=True)

    def embeds_from_wavs(self, wavs, sample_rate):
        mels = []
        for wav in wavs:
            frames = np.lib.stride_tricks.sliding_window_view(wav, 400)[::160]
            spec = np.abs(np.fft.rfft(frames * np.hanning(400), axis=1))[:, : self.hp.num_mels]
            mels.append(np.log1p(spec).astype(np.float32))
        with torch.inference_mode():
            embeds = self(torch.from_numpy(np.stack(mels)).to(self.device))
        return embeds.cpu().numpy()


# ---- models/t3 and models/s3gen (reduced: a text-to-speech-token transformer stand-in and a token-to-wave decoder)
@dataclass
class T3Config:
    text_vocab: int = 64
    speech_vocab: int = 128
    n_channels: int = 32
    start_text_token: int = 1
    stop_text_token: int = 2
    speech_cond_prompt_len: int = 0

    @classmethod
    def multilingual(cls):
        return cls(text_vocab=96)


@dataclass
class T3Cond:
    speaker_emb: torch.Tensor
    cond_prompt_speech_tokens: torch.Tensor = None
    emotion_adv: torch.Tensor = 0.5

    def to(self, *, device=None, dtype=None):
        for k, v in self.__dict__.items():
            if torch.is_tensor(v):
                setattr(self, k, v.to(device=device))
        return self


class T3(nn.Module):
    def __init__(self, hp=T3Config()):
        super().__init__()
        self.hp = hp
        self.text_emb = nn.Embedding(hp.text_vocab, hp.n_channels)
        self.spkr_proj = nn.Linear(VoiceEncConfig.speaker_embed_size, hp.n_channels)
        self.head = nn.Linear(hp.n_channels, hp.speech_vocab)

    def inference(self, t3_cond, text_tokens, max_new_tokens=32, temperature=0.8, cfg_weight=0.5, **kw):
        h = self.text_emb(text_tokens) + self.spkr_proj(t3_cond.speaker_emb)[:, None]
        logits = self.head(h)
        cond, uncond = logits[0:1], logits[1:2]
        logits = cond + cfg_weight * (cond - uncond)
        return torch.argmax(logits / temperature, dim=-1)


class S3Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.speech_emb = nn.Embedding(128, 32)
        self.to_wave = nn.Linear(32, 240)

    def embed_ref(self, ref_wav, ref_sr, device="auto"):
        return {"embedding": torch.from_numpy(ref_wav[:32].astype(np.float32))[None].to(device)}

    def inference(self, speech_tokens, ref_dict):
        wav = torch.tanh(self.to_wave(self.speech_emb(speech_tokens) + ref_dict["embedding"]))
        return wav.reshape(1, -1), None


class MTLTokenizer:
    def __init__(self, vocab_file_path):
        self.vocab_file_path = vocab_file_path

    def text_to_tokens(self, text, language_id=None):
        ids = [3 + (ord(c) % 90) for c in text]
        return torch.tensor([ids], dtype=torch.long)


def punc_norm(text):
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


# ---- src/chatterbox/mtl_tts.py
@dataclass
class Conditionals:
    t3: T3Cond
    gen: dict

    def to(self, device):
        self.t3 = self.t3.to(device=device)
        for k, v in self.gen.items():
            if torch.is_tensor(v):
                self.gen[k] = v.to(device=device)
        return self

    def save(self, fpath: Path):
        arg_dict = dict(t3=self.t3.__dict__, gen=self.gen)
        torch.save(arg_dict, fpath)

    @classmethod
    def load(cls, fpath, map_location="cpu"):
        if isinstance(map_location, str):
            map_location = torch.device(map_location)
        kwargs = torch.load(fpath, map_location=map_location, weights_only=True)
        return cls(T3Cond(**kwargs['t3']), kwargs['gen'])


class ChatterboxMultilingualTTS:
    ENC_COND_LEN = 6 * S3_SR
    DEC_COND_LEN = 10 * S3GEN_SR

    def __init__(self, t3, s3gen, ve, tokenizer, device, conds=None):
        self.sr = S3GEN_SR
        self.t3 = t3
        self.s3gen = s3gen
        self.ve = ve
        self.tokenizer = tokenizer
        self.device = device
        self.conds = conds

    @classmethod
    def get_supported_languages(cls):
        return SUPPORTED_LANGUAGES.copy()

    @classmethod
    def from_local(cls, ckpt_dir, device) -> 'ChatterboxMultilingualTTS':
        ckpt_dir = Path(ckpt_dir)

        # Always load to CPU first for non-CUDA devices to handle CUDA-saved models
        if device in ["cpu", "mps"]:
            map_location = torch.device('cpu')
        else:
            map_location = None

        ve = VoiceEncoder()
        ve.load_state_dict(
            torch.load(ckpt_dir / "ve.pt", map_location=map_location, weights_only=True)
        )
        ve.to(device).eval()

        t3 = T3(T3Config.multilingual())
        t3_state = load_safetensors(ckpt_dir / "t3_mtl23ls_v2.safetensors")
        if "model" in t3_state.keys():
            t3_state = t3_state["model"][0]
        t3.load_state_dict(t3_state)
        t3.to(device).eval()

        s3gen = S3Gen()
        s3gen.load_state_dict(
            torch.load(ckpt_dir / "s3gen.pt", map_location=map_location, weights_only=True)
        )
        s3gen.to(device).eval()

        tokenizer = MTLTokenizer(str(ckpt_dir / "grapheme_mtl_merged_expanded_v1.json"))

        conds = None
        if (builtin_voice := ckpt_dir / "conds.pt").exists():
            conds = Conditionals.load(builtin_voice, map_location=map_location).to(device)

        return cls(t3, s3gen, ve, tokenizer, device, conds=conds)

    @classmethod
    def from_pretrained(cls, device, ckpt_dir) -> 'ChatterboxMultilingualTTS':
        # snapshot_download(repo_id=REPO_ID, ...) stands in as a local folder
        return cls.from_local(ckpt_dir, device)

    def prepare_conditionals(self, wav, exaggeration=0.5):
        ref_16k_wav = wav[::3].astype(np.float32)
        s3gen_ref_dict = self.s3gen.embed_ref(wav[:self.DEC_COND_LEN], S3GEN_SR, device=self.device)
        ve_embed = torch.from_numpy(self.ve.embeds_from_wavs([ref_16k_wav], sample_rate=S3_SR))
        ve_embed = ve_embed.mean(axis=0, keepdim=True).to(self.device)
        t3_cond = T3Cond(speaker_emb=ve_embed, emotion_adv=exaggeration * torch.ones(1, 1, 1)).to(device=self.device)
        self.conds = Conditionals(t3_cond, s3gen_ref_dict)

    def generate(self, text, language_id, audio_prompt=None, exaggeration=0.5, cfg_weight=0.5, temperature=0.8):
        if language_id and language_id.lower() not in SUPPORTED_LANGUAGES:
            raise ValueError(f"Unsupported language_id '{language_id}'.")
        if audio_prompt is not None:
            self.prepare_conditionals(audio_prompt, exaggeration=exaggeration)
        else:
            assert self.conds is not None, "Please `prepare_conditionals` first or specify `audio_prompt_path`"

        text = punc_norm(text)
        text_tokens = self.tokenizer.text_to_tokens(text, language_id=language_id.lower()).to(self.device)
        text_tokens = torch.cat([text_tokens, text_tokens], dim=0)  # Need two seqs for CFG
        text_tokens = F.pad(text_tokens, (1, 0), value=self.t3.hp.start_text_token)
        text_tokens = F.pad(text_tokens, (0, 1), value=self.t3.hp.stop_text_token)

        with torch.inference_mode():
            speech_tokens = self.t3.inference(t3_cond=self.conds.t3, text_tokens=text_tokens,
                                              temperature=temperature, cfg_weight=cfg_weight)[0]
            wav, _ = self.s3gen.inference(speech_tokens=speech_tokens.to(self.device), ref_dict=self.conds.gen)
            wav = wav.squeeze(0).detach().cpu().numpy()
        return torch.from_numpy(wav).unsqueeze(0)


# ---- the released checkpoint folder (ve.pt and s3gen.pt written from CUDA, t3 as safetensors, conds.pt on CPU)
@contextlib.contextmanager
def storages_tagged_cuda():
    # what torch.save records for tensors that live on the GPU
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def write_release(ckpt_dir):
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    with storages_tagged_cuda():
        torch.save(VoiceEncoder().state_dict(), ckpt_dir / "ve.pt")
        torch.save(S3Gen().state_dict(), ckpt_dir / "s3gen.pt")
    save_safetensors(T3(T3Config.multilingual()).state_dict(), str(ckpt_dir / "t3_mtl23ls_v2.safetensors"))
    (ckpt_dir / "grapheme_mtl_merged_expanded_v1.json").write_text("{}")
    Conditionals(T3Cond(speaker_emb=torch.randn(1, 32), emotion_adv=0.5 * torch.ones(1, 1, 1)),
                 {"embedding": torch.randn(1, 32)}).save(ckpt_dir / "conds.pt")


if __name__ == "__main__":
    torch.manual_seed(0)
    ckpt_dir = Path(tempfile.mkdtemp()) / "ResembleAI--chatterbox"
    write_release(ckpt_dir)

    # README, multilingual example, on a machine without CUDA
    device = "cuda" if torch.cuda.is_available() else "cpu"
    multilingual_model = ChatterboxMultilingualTTS.from_pretrained(device=device, ckpt_dir=ckpt_dir)
    french_text = "Bonjour, comment ça va? Ceci est le modèle de synthèse vocale multilingue Chatterbox."
    wav_french = multilingual_model.generate(french_text, language_id="fr")
    reference = np.sin(np.linspace(0, 800, 3 * S3GEN_SR)).astype(np.float64)
    wav_clone = multilingual_model.generate("Hallo, wie geht es dir?", language_id="de", audio_prompt=reference)
    print("fr", tuple(wav_french.shape), "de (cloned voice)", tuple(wav_clone.shape))
