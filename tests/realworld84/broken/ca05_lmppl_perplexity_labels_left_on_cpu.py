"""An lmppl-style perplexity scorer (re-typed: LM.__init__ with device_map/attn_implementation options and self.device = self.model.device, get_perplexity batching, tokenizing, shifting and scoring with CrossEntropyLoss(reduction='none')) over a small OPT-like causal LM placed by device_map: the batch is moved to the model's device only inside the model call, the labels are taken from the CPU batch, and the loss mixes the two devices
source: https://github.com/asahi417/lmppl/pull/12
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument target in method wrapper_CUDA_nll_loss_forward) (LM(..., attn_implementation='flash_attention_2') with a device_map; the PR moves model_inputs to self.device before the model call, and commit f16bd6d adds .to(self.device) to label)
outcome: RuntimeError: Tensor on device meta is not on the expected device cpu! at line 134
root-cause: line 125
expect: DG009
"""
from math import exp

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PAD_TOKEN_LABEL_ID = torch.nn.CrossEntropyLoss().ignore_index

# the reporter's model sits on cuda:0 through device_map; on a CPU-only machine the meta device stands in for it
DEVICE_MAP = 'cuda:0' if torch.cuda.is_available() else 'meta'


class Tokenizer:
    """The subset of an OPT tokenizer used here: a pad token, batch encoding with padding."""
    pad_token = '<pad>'
    pad_token_id = 1
    model_max_length = 120

    def __call__(self, texts, truncation=True, padding=True, return_tensors='pt', max_length=None):
        ids = [[2] + [4 + (ord(c) % 250) for c in t][: self.model_max_length - 1] for t in texts]
        width = max(len(i) for i in ids)
        input_ids = torch.full((len(ids), width), self.pad_token_id, dtype=torch.long)
        attention_mask = torch.zeros((len(ids), width), dtype=torch.long)
        for row, i in enumerate(ids):
            input_ids[row, :len(i)] = torch.tensor(i)
            attention_mask[row, :len(i)] = 1
        return {'input_ids': input_ids, 'attention_mask': attention_mask}


class OPTForCausalLM(nn.Module):
    def __init__(self, vocab_size=260, hidden=64, heads=4):
        super().__init__()
        self.heads = heads
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.embed_positions = nn.Embedding(128, hidden)
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.out_proj = nn.Linear(hidden, hidden)
        self.fc = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.ReLU(), nn.Linear(4 * hidden, hidden))
        self.norm = nn.LayerNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    @property
    def device(self):
        return next(self.parameters()).device

    @classmethod
    def from_pretrained(cls, model, device_map=None, torch_dtype=None, attn_implementation=None, **kwargs):
        m = cls()
        if torch_dtype is not None:
            m = m.to(torch_dtype)
        if device_map is not None:
            m = m.to(device_map)
        return m

    def forward(self, input_ids, attention_mask=None):
        b, s = input_ids.shape
        pos = torch.arange(s, device=input_ids.device)
        h = self.embed_tokens(input_ids) + self.embed_positions(pos)
        q, k, v = self.qkv(h).view(b, s, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, s, -1)
        h = h + self.out_proj(a)
        h = h + self.fc(self.norm(h))
        return {'logits': self.lm_head(h)}


class LM:
    """ Language Model. """

    def __init__(self, model='facebook/opt-125m', max_length=None, num_gpus=None, torch_dtype=None,
                 device_map=None, attn_implementation=None):
        self.tokenizer = Tokenizer()
        params = {}
        if torch_dtype is not None:
            params['torch_dtype'] = torch_dtype
        if device_map is not None:
            params['device_map'] = device_map
        if attn_implementation is not None:
            params['attn_implementation'] = attn_implementation
        self.model = OPTForCausalLM.from_pretrained(model, **params)

        self.pad_token_initialized = False
        self.max_length = max_length

        # loss function
        self.loss_fct = torch.nn.CrossEntropyLoss(reduction='none')

        # GPU setup
        self.device = self.model.device
        if device_map is None:
            num_gpus = torch.cuda.device_count() if num_gpus is None else num_gpus
            if num_gpus == 1:
                self.model.to('cuda')
                self.device = self.model.device
        self.model.eval()
        print(f'\t * model is loaded on: {self.device}')

    def get_perplexity(self, input_texts, batch_size=None):
        single_input = type(input_texts) == str
        input_texts = [input_texts] if single_input else input_texts
        batch_size = len(input_texts) if batch_size is None else batch_size
        batch_id = list(range(0, len(input_texts), batch_size)) + [len(input_texts)]
        batch_id = list(zip(batch_id[:-1], batch_id[1:]))

        loss_list = []
        with torch.no_grad():
            for s, e in batch_id:
                model_inputs = self.tokenizer(input_texts[s:e], truncation=True, padding=True, return_tensors='pt')
                if 'token_type_ids' in model_inputs:
                    model_inputs.pop('token_type_ids')

                output = self.model(**{k: v.to(self.device) for k, v in model_inputs.items()})  # root-cause-alt
                logit = output['logits']
                if self.pad_token_initialized:
                    logit = logit[:, :, :-1]

                # shift the label sequence for causal inference
                label = model_inputs['input_ids']  # root-cause
                label[label == self.tokenizer.pad_token_id] = PAD_TOKEN_LABEL_ID

                # Shift so that tokens < n predict n
                shift_logits = logit[..., :-1, :].contiguous()
                shift_label = label[:, 1:].contiguous()

                # compute loss
                valid_length = (shift_label != PAD_TOKEN_LABEL_ID).sum(dim=-1)
                loss = self.loss_fct(shift_logits.view(-1, shift_logits.size(-1)), shift_label.view(-1))  # fails-here
                loss = loss.view(len(output['logits']), -1)
                loss = torch.sum(loss, -1) / valid_length
                loss_list += loss.cpu().tolist()

        ppl = [exp(i) for i in loss_list]
        return ppl[0] if single_input else ppl


scorer = LM('facebook/opt-125m', device_map=DEVICE_MAP, attn_implementation='flash_attention_2')
text = [
    'sentiment classification: I dropped my laptop on my knee, and someone stole my coffee. I am happy.',
    'sentiment classification: I dropped my laptop on my knee, and someone stole my coffee. I am sad.',
]
print(scorer.get_perplexity(text))
