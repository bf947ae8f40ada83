"""PyG txt2kg_rag example: torch.load of knowledge-graph triples that are plain Python strings, no tensors

source: https://github.com/pyg-team/pytorch_geometric/blob/5c6461b2305ad068a6d61165b3c55852a11aaa41/examples/llm/txt2kg_rag.py#L334
(and the same file's https://github.com/pyg-team/pytorch_geometric/blob/5c6461b2305ad068a6d61165b3c55852a11aaa41/examples/llm/txt2kg_rag.py#L446)
false-alarm: DG010 at line 67 and at line 93: both loads read files that this script wrote itself
from LLM output: the *--checkpoint_kg.pt file holds TXT2KG.relevant_triples (a dict doc id -> list of
(str, str, str) tuples, saved at line 77) and the *--raw_triples.pt file the de-duplicated list of
lower-cased string triples (saved at line 82). Neither holds a tensor, so there is no storage to
deserialize and nothing for map_location to move: both load on a CPU-only machine whatever machine
wrote them (the second one with the default weights_only=True too: lists, tuples and str are allowed).
"""
# Reduction: the NVIDIA NIM call of TXT2KG is replaced by a fixed "LLM" reply per document, parsed the
# way torch_geometric.llm.models.txt2kg._parse_n_check_triples does; SentenceTransformer and the graph
# building by a tiny embedding table on `device`. The glob-for-a-previous-file / save / reload flow of
# index_kg and make_dataset is kept.
import os
import tempfile
from datetime import datetime
from itertools import chain
from pathlib import Path

import torch
import torch.nn as nn

NV_NIM_MODEL = "nvidia/llama-3.1-nemotron-70b-instruct"


def preprocess_triplet(triplet):
    h, r, t = triplet
    return str(h).lower(), str(r).lower(), str(t).lower()


def parse_triples(triples_str):
    processed = []
    for triple_str in triples_str.split("\n"):
        split_trip = triple_str.replace("(", "").replace(")", "").replace("'", "").split(",")
        split_trip = [s.strip() for s in split_trip]
        if len(split_trip) == 3 and all(split_trip):
            processed.append(tuple(split_trip))
    return processed


class TXT2KG:
    def __init__(self, NVIDIA_NIM_MODEL):
        self.NIM_MODEL = NVIDIA_NIM_MODEL
        self.local_LM = False
        self.relevant_triples = {}
        self.doc_id_counter = 0

    def add_doc_2_KG(self, txt):
        words = txt.split()
        reply = "\n".join(f"({a}, next_to, {b})" for a, b in zip(words, words[1:]))
        self.relevant_triples[self.doc_id_counter] = parse_triples(reply)
        self.doc_id_counter += 1


def index_kg(dataset, context_docs):
    kg_maker = TXT2KG(NVIDIA_NIM_MODEL=NV_NIM_MODEL)
    checkpoint_file = list(Path(dataset).glob("*--*--checkpoint_kg.pt"))
    if len(checkpoint_file) > 1:
        raise RuntimeError("Error: more than one checkpoint file found")
    if len(checkpoint_file) == 1:
        print("Restoring KG from checkpoint")
        checkpoint_file = checkpoint_file[0]
        if NV_NIM_MODEL.split("/")[-1] != checkpoint_file.name.split("--")[0]:
            raise RuntimeError("Error: stored triples were generated using a different model")
        saved_relevant_triples = torch.load(checkpoint_file, weights_only=False)
        kg_maker.relevant_triples = saved_relevant_triples
        kg_maker.doc_id_counter = len(saved_relevant_triples)
        context_docs = context_docs[kg_maker.doc_id_counter:]

    for i, context_doc in enumerate(context_docs):
        kg_maker.add_doc_2_KG(txt=context_doc)
        if i == 1:  # checkpoint part way, as the script does every 10 documents
            path = dataset + "/{m}--{t}--checkpoint_kg.pt"
            path = path.format(m=kg_maker.NIM_MODEL.split("/")[-1], t=datetime.now().strftime("%Y%m%d_%H%M%S"))
            torch.save(kg_maker.relevant_triples, path)

    triples = list(chain.from_iterable(kg_maker.relevant_triples.values()))
    triples = list(dict.fromkeys(preprocess_triplet(t) for t in triples))
    raw_triples_path = dataset + "/{m}--{t}--raw_triples.pt"
    torch.save(triples, raw_triples_path.format(m=kg_maker.NIM_MODEL.split("/")[-1], t="20250101_000000"))
    for old_checkpoint_file in Path(dataset).glob("*--*--checkpoint_kg.pt"):
        os.remove(old_checkpoint_file)
    return triples


def make_dataset(dataset, context_docs):
    raw_triples_file = list(Path(dataset).glob("*--*--raw_triples.pt"))
    if len(raw_triples_file) == 1:
        raw_triples_file = raw_triples_file[0]
        print(f" -> Saved triples generated with: {raw_triples_file.name.split('--')[0]}")
        triples = torch.load(raw_triples_file)
    else:
        triples = index_kg(dataset, context_docs)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    nodes = sorted({n for h, _, t in triples for n in (h, t)})
    index = {n: i for i, n in enumerate(nodes)}
    encoder = nn.Embedding(len(nodes), 8).to(device)
    edge_index = torch.tensor([[index[h] for h, _, t in triples], [index[t] for h, _, t in triples]], device=device)
    x = encoder(torch.arange(len(nodes), device=device))
    return x, edge_index


def main():
    dataset = tempfile.mkdtemp()
    docs = ["Paris lies on the Seine", "The Seine flows to Le Havre", "Le Havre faces the Channel"]
    # first run: stopped after the checkpoint of two documents, as if interrupted
    kg = TXT2KG(NV_NIM_MODEL)
    for d in docs[:2]:
        kg.add_doc_2_KG(d)
    torch.save(kg.relevant_triples, dataset + "/llama-3.1-nemotron-70b-instruct--20250101_000000--checkpoint_kg.pt")
    x, edge_index = make_dataset(dataset, docs)  # resumes from the checkpoint, writes raw_triples.pt
    x2, edge_index2 = make_dataset(dataset, docs)  # reuses raw_triples.pt
    assert torch.equal(edge_index, edge_index2)
    print(x.shape, edge_index.shape)


if __name__ == "__main__":
    main()
