"""LLaVA fine-tuning with an xtuner-style config (bfloat16 LLM, float32 CLIP encoder and projector) where LLaVAModel.forward casts the projected image tokens to the LLM's dtype before splicing them into the text embeddings, so inputs_embeds stay bfloat16 while the trainable projector keeps float32 weights
source: https://github.com/InternLM/xtuner/issues/772
reported-error: RuntimeError: expected mat1 and mat2 to have the same dtype, but got: float != c10::BFloat16 (LLaVA config with AutoModelForCausalLM + CLIPVisionModel + LLaVAModel, config attached to the issue)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


# ---- stand-ins for transformers.CLIPVisionModel / AutoModelForCausalLM (toy sizes, no download)
class CLIPVisionModel(nn.Module):
    def __init__(self, hidden=32, patches=4):
        super().__init__()
        self.patch_embed = nn.Linear(3 * 8 * 8, hidden)
        self.layers = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(2)])
        self.patches = patches

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, torch_dtype=None):
        model = cls()
        return model.to(torch_dtype) if torch_dtype is not None else model

    def forward(self, pixel_values, output_hidden_states=True):
        b = pixel_values.shape[0]
        h = self.patch_embed(pixel_values.reshape(b, self.patches, -1))
        hidden_states = [h]
        for layer in self.layers:
            h = torch.tanh(layer(h))
            hidden_states.append(h)
        return type("Out", (), {"hidden_states": hidden_states})()


class AutoModelForCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=48):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.q_proj = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, torch_dtype=None, trust_remote_code=True):
        model = cls()
        return model.to(torch_dtype) if torch_dtype is not None else model

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def get_input_embeddings(self):
        return self.embed_tokens

    def forward(self, inputs_embeds, labels):
        logits = self.lm_head(torch.relu(self.q_proj(inputs_embeds)))
        return nn.functional.cross_entropy(logits.float().flatten(0, 1), labels.flatten(), ignore_index=-100)


# ---- xtuner/model/modules/projector + xtuner/model/llava.py
class ProjectorModel(nn.Module):
    def __init__(self, visual_hidden_size, llm_hidden_size, depth=2):
        super().__init__()
        layers = [nn.Linear(visual_hidden_size, llm_hidden_size)]
        for _ in range(1, depth):
            layers += [nn.GELU(), nn.Linear(llm_hidden_size, llm_hidden_size)]
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)


def build(cfg):
    cfg = dict(cfg)
    return cfg.pop("type")(**cfg)


def prepare_inputs_labels_for_mmllm(llm, input_ids, labels, pixel_values):
    text_embeds = llm.get_input_embeddings()(input_ids)
    image_labels = torch.full(pixel_values.shape[:2], -100, dtype=labels.dtype)
    inputs_embeds = torch.cat([pixel_values, text_embeds], dim=1)
    return dict(inputs_embeds=inputs_embeds, labels=torch.cat([image_labels, labels], dim=1))


class LLaVAModel(nn.Module):
    def __init__(self, llm, visual_encoder, freeze_llm=True, freeze_visual_encoder=True, visual_select_layer=-2):
        super().__init__()
        self.llm = build(llm)
        self.visual_encoder = build(visual_encoder)
        self.llm.requires_grad_(not freeze_llm)
        self.visual_encoder.requires_grad_(not freeze_visual_encoder)
        self.projector = ProjectorModel(32, 48).to(self.visual_encoder.dtype)
        self.visual_select_layer = visual_select_layer

    def forward(self, data):
        visual_outputs = self.visual_encoder(data["pixel_values"].to(self.visual_encoder.dtype))
        pixel_values = self.projector(visual_outputs.hidden_states[self.visual_select_layer]).to(self.llm.dtype)
        data = prepare_inputs_labels_for_mmllm(self.llm, data["input_ids"], data["labels"], pixel_values)
        return self.llm(**data)


#######################################################################
#                          PART 2  Model & Tokenizer                  #
#######################################################################
model = dict(
    type=LLaVAModel,
    freeze_llm=True,
    freeze_visual_encoder=True,
    llm=dict(type=AutoModelForCausalLM.from_pretrained, pretrained_model_name_or_path="internlm/internlm2-chat-7b",
             trust_remote_code=True, torch_dtype=torch.bfloat16),
    visual_encoder=dict(type=CLIPVisionModel.from_pretrained,
                        pretrained_model_name_or_path="openai/clip-vit-large-patch14-336"))

if __name__ == "__main__":
    torch.manual_seed(0)
    llava = build(model)
    optimizer = torch.optim.AdamW(llava.projector.parameters(), lr=2e-4, betas=(0.9, 0.999), weight_decay=0)
    for step in range(3):
        batch = {"pixel_values": torch.randn(2, 3, 16, 16), "input_ids": torch.randint(0, 100, (2, 6)),
                 "labels": torch.randint(0, 100, (2, 6))}
        loss = llava(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
