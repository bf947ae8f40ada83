"""Self-supervised speech restoration demo (gradio-style transfer function): the demo's config dict hard-codes device 'cuda:0', and the channel-feature checkpoint is loaded with map_location=config['device'], which on a CPU-only Space still asks for CUDA storages
source: https://github.com/Takaaki-Saeki/ssl_speech_restoration/issues/4
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False (aet_demo.py, line 60, in transfer: src_model = ...)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 47
root-cause: line 14
expect: DG010
"""
import io

import torch
import torch.nn as nn

config = {
    "general": {"device": "cuda:0", "sr": 16000, "n_mels": 20},  # root-cause
    "model": {"hidden": 24},
}


# ---- model.py
class AnalysisSynthesis(nn.Module):
    def __init__(self, n_mels, hidden):
        super().__init__()
        self.encoder = nn.GRU(n_mels, hidden, batch_first=True)
        self.channel = nn.Linear(hidden, n_mels)

    def forward(self, mel):
        h, _ = self.encoder(mel)
        return mel - torch.tanh(self.channel(h))


# ---- train.py (stands in for the checkpoint trained on a GPU)
def gpu_checkpoint_bytes():
    import torch.serialization as serialization
    buf = io.BytesIO()
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(AnalysisSynthesis(config["general"]["n_mels"], config["model"]["hidden"]).state_dict(), buf)
    finally:
        serialization.location_tag = original
    return buf.getvalue()


# ---- aet_demo.py
def load_model(ckpt_bytes):
    model = AnalysisSynthesis(config["general"]["n_mels"], config["model"]["hidden"])
    state = torch.load(io.BytesIO(ckpt_bytes), map_location=config["general"]["device"])  # fails-here
    model.load_state_dict(state)
    return model.eval()


def transfer(src_mel, ckpt_bytes):
    src_model = load_model(ckpt_bytes)
    with torch.no_grad():
        return src_model(src_mel)


if __name__ == "__main__":
    torch.manual_seed(0)
    out = transfer(torch.randn(1, 50, config["general"]["n_mels"]), gpu_checkpoint_bytes())
    print("restored mel", tuple(out.shape))
