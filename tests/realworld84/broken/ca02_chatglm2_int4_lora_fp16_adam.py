"""A chatglm2-6b-int4-lora-style LoRA fine-tune (re-typed: LoraQuantizedLinear wrapping the int4/int8 QuantizedLinear with lora_a/lora_b created as float16 Parameters, attach_lora freezing everything else, the issue's train_handle loop with --adam --lr=1e-4 under detect_anomaly): torch.optim.Adam with the default eps over float16 LoRA weights writes NaN at the first step and the second backward fails
source: https://github.com/zai-org/ChatGLM2-6B/issues/652
reported-error: "6b-int4 lora 微调使用 adam 优化器时梯度爆炸" (LoRA fine-tuning with the Adam optimizer explodes: step 0 loss 5.80, then under detect_anomaly "Error detected in LogSoftmaxBackward0" / the backward returns nan values; with SGD it trains)
outcome: RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output. at line 220
root-cause: line 201
expect: DG012
"""
import json
import re

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def half_weight_to_int(weight):
    weight_scale = weight.abs().max(dim=-1).values / 127
    weight = torch.round(weight / weight_scale[:, None]).to(torch.int8)
    return weight, weight_scale


def extract_weight_to_half(weight, scale_list):
    return weight.to(torch.float16) * scale_list[:, None]


class QuantizedLinear(nn.Module):
    def __init__(self, weight_bit_width, weight, bias=None):
        super().__init__()
        self.weight_bit_width = weight_bit_width
        weight, weight_scale = half_weight_to_int(weight)
        self.weight = nn.Parameter(weight, requires_grad=False)
        self.weight_scale = nn.Parameter(weight_scale, requires_grad=False)
        self.bias = nn.Parameter(bias, requires_grad=False) if bias is not None else None

    def forward(self, input):
        output = input @ extract_weight_to_half(self.weight, self.weight_scale).t()
        if self.bias is not None:
            output = output + self.bias
        return output


class LoraQuantizedLinear(nn.Module):
    def __init__(self, q_linear, lora_r=32, lora_alpha=32, lora_dropout_rate=0.0):
        super().__init__()
        self.lora_r = lora_r
        self.lora_alpha = lora_alpha
        self.weight_bit_width = q_linear.weight_bit_width
        self.weight = q_linear.weight
        self.weight_scale = q_linear.weight_scale
        self.bias = q_linear.bias

        out_dim, in_dim = self.weight.shape
        self.lora_a = nn.Parameter(torch.empty(
            [self.lora_r, in_dim],
            device=self.weight.device,
            dtype=torch.float16,  # root-cause-alt
        ))
        nn.init.kaiming_normal_(self.lora_a)
        self.lora_b = nn.Parameter(torch.zeros(
            [out_dim, self.lora_r],
            device=self.weight.device,
            dtype=torch.float16,
        ))
        self.lora_dropout = nn.Dropout(lora_dropout_rate)
        self.lora_scale = self.lora_alpha / self.lora_r

    def forward(self, input):
        ori_output = QuantizedLinear.forward(self, input)
        lora_output = (
            self.lora_dropout(input.half()) @
            self.lora_a.transpose(0, 1) @
            self.lora_b.transpose(0, 1) *
            self.lora_scale
        )
        return ori_output + lora_output.to(ori_output.dtype)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim, dtype=torch.float16))
        self.eps = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.eps)
        return (self.weight * hidden_states).to(torch.float16)


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.query_key_value = QuantizedLinear(8, torch.randn(3 * hidden, hidden, dtype=torch.float16) * 0.05,
                                               torch.zeros(3 * hidden, dtype=torch.float16))
        self.dense = QuantizedLinear(8, torch.randn(hidden, hidden, dtype=torch.float16) * 0.05)

    def forward(self, x):
        b, s, h = x.shape
        q, k, v = self.query_key_value(x).chunk(3, dim=-1)
        q, k, v = (t.view(b, s, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-1, -2)).float() / (q.shape[-1] ** 0.5)
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        probs = scores.masked_fill(mask, float("-inf")).softmax(-1).to(torch.float16)
        ctx = (probs @ v).transpose(1, 2).reshape(b, s, h)
        return self.dense(ctx)


class MLP(nn.Module):
    def __init__(self, hidden, ffn):
        super().__init__()
        self.dense_h_to_4h = QuantizedLinear(8, torch.randn(2 * ffn, hidden, dtype=torch.float16) * 0.05)
        self.dense_4h_to_h = QuantizedLinear(8, torch.randn(hidden, ffn, dtype=torch.float16) * 0.05)

    def forward(self, x):
        a, g = self.dense_h_to_4h(x).chunk(2, dim=-1)
        return self.dense_4h_to_h(F.silu(a) * g)


class GLMBlock(nn.Module):
    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.input_layernorm = RMSNorm(hidden)
        self.self_attention = SelfAttention(hidden, heads)
        self.post_attention_layernorm = RMSNorm(hidden)
        self.mlp = MLP(hidden, ffn)

    def forward(self, x):
        x = x + self.self_attention(self.input_layernorm(x))
        return x + self.mlp(self.post_attention_layernorm(x))


class ChatGLMForConditionalGeneration(nn.Module):
    def __init__(self, vocab=300, hidden=64, heads=4, ffn=128, num_layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden, dtype=torch.float16)
        self.layers = nn.ModuleList([GLMBlock(hidden, heads, ffn) for _ in range(num_layers)])
        self.final_layernorm = RMSNorm(hidden)
        self.output_layer = nn.Linear(hidden, vocab, bias=False, dtype=torch.float16)
        self.lora_attached = False

    def attach_lora(self, lora_r=32, lora_alpha=32, lora_dropout_rate=0.0):
        if self.lora_attached:
            return self
        lora_conf = dict(lora_r=lora_r, lora_alpha=lora_alpha, lora_dropout_rate=lora_dropout_rate)
        for mod in self.modules():
            for name in dir(mod):
                submod = getattr(mod, name, None)
                if not isinstance(submod, QuantizedLinear):
                    continue
                setattr(mod, name, LoraQuantizedLinear(submod, **lora_conf))
        for name, param in self.named_parameters():
            if 'lora_' not in name:
                param.requires_grad = False
        self.lora_attached = True
        return self

    def forward(self, input_ids, labels=None):
        hidden_states = self.embedding(input_ids)
        for layer in self.layers:
            hidden_states = layer(hidden_states)
        lm_logits = self.output_layer(self.final_layernorm(hidden_states)).to(torch.float32)
        shift_logits = lm_logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        loss = F.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1), ignore_index=-100)
        return loss


class Tokenizer:
    pad_token_id = 0
    eos_token_id = 2

    def build_prompt(self, query):
        return f"[Round 1]\n\n问：{query}\n\n答："

    def encode(self, text, add_special_tokens=True):
        ids = [3 + (ord(c) % 290) for c in text]
        return ([1] + ids) if add_special_tokens else ids


def combine_prompt_args(prompt, args):
    return re.sub(r'{(\w+)}', lambda g: args.get(g.group(1), ''), prompt)


# AdvertiseGen/dev.jsonl lines
ds = [json.loads(line) for line in [
    '{"content": "类型#上衣*材质#牛仔布*颜色#白色*风格#简约*图案#刺绣*衣样式#外套*衣款式#破洞", "summary": "简约而不简单的牛仔外套，白色的衣身十分百搭。衣身多处有做旧破洞设计，打破单调乏味，增加一丝造型看点。"}',
    '{"content": "类型#裙*材质#针织*颜色#纯色*风格#复古*风格#文艺*裙型#背带裙*裙长#连衣裙*裙领型#半高领", "summary": "这款针织两件套连衣裙，简约的纯色半高领针织上衣，修饰着颈部线，尽显优雅气质。"}',
]]

# python train.py /data/AdvertiseGen/dev.jsonl test.pth -q "请根据以下关键词生成文案：{content}" -a "{summary}" --adam --lr='1e-4'
args = dict(ques_prompt="请根据以下关键词生成文案：{content}", ans_prompt="{summary}", adam=True, lr=1e-4,
            n_epoch=2, schedule_step=100, schedule_gamma=0.9)

llm = ChatGLMForConditionalGeneration()
tokenizer = Tokenizer()
llm.attach_lora()
if args['adam']:
    optimizer = torch.optim.Adam(llm.parameters(), lr=args['lr'])  # root-cause
else:
    optimizer = torch.optim.SGD(llm.parameters(), lr=args['lr'])
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=args['schedule_step'], gamma=args['schedule_gamma'])
step = 0
for epoch in range(args['n_epoch']):
    for i, dsi in enumerate(ds):
        ques = tokenizer.build_prompt(combine_prompt_args(args['ques_prompt'], dsi))
        ans = combine_prompt_args(args['ans_prompt'], dsi)
        ques_ids = tokenizer.encode(text=ques, add_special_tokens=True)
        ans_ids = tokenizer.encode(text=ans, add_special_tokens=False)
        input_ids = ques_ids + ans_ids + [tokenizer.eos_token_id]
        output_ids = [tokenizer.pad_token_id] * len(ques_ids) + ans_ids + [tokenizer.eos_token_id]
        output_ids = [(oid if oid != tokenizer.pad_token_id else -100) for oid in output_ids]
        input_ids = torch.tensor([input_ids])
        output_ids = torch.tensor([output_ids])
        with torch.autograd.detect_anomaly():
            loss = llm.forward(input_ids=input_ids, labels=output_ids)
            print(f'epoch: {epoch}\nstep: {step}\nloss: {loss.item()}')
            loss.backward()  # fails-here
        optimizer.step()
        optimizer.zero_grad()
        scheduler.step()
        step += 1

print(f'lora weights non-finite: {sum(int((~torch.isfinite(p)).sum()) for n, p in llm.named_parameters() if "lora_" in n)}')
