#!/usr/bin/env python3
"""Independent NumPy reference of all-mpnet-base-v2 (sentence-transformers: MPNet encoder,
mean pooling, L2 normalisation), used to derive the expectations of the Rust embedding tests.

It reads the installed model folder (scripts/install-model.sh), tokenizes with the reference
`tokenizers` library (the model's own tokenizer.json, truncated to the model's 384 tokens),
and writes two fixtures:

  tokenizer_ids.json  token ids of corpus lines (named by file and line number, the text is
                      read back from the corpus by the test) and of hand-written edge cases;
  mpnet_vectors.json  full 768-d sentence embeddings of hand-written sentences.

Usage: python3 benches/embedding/reference.py [MODEL_DIR] [CORPUS_DIR] [OUT_DIR]
Needs: pip install numpy safetensors tokenizers
"""
import json
import math
import os
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MAX_SEQ_LENGTH = 384


def load_tokenizer(model_dir):
    tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
    return tokenizer


def relative_bucket(relative_position, num_buckets=32, max_distance=128):
    """Bidirectional T5-style bucket, as in HF MPNetEncoder.relative_position_bucket."""
    ret = 0
    n = -relative_position
    num_buckets //= 2
    if n < 0:
        ret += num_buckets
    n = abs(n)
    max_exact = num_buckets // 2
    if n < max_exact:
        return ret + n
    # float32 arithmetic like the torch implementation
    value = np.log(np.float32(n) / np.float32(max_exact)) / np.float32(
        math.log(max_distance / max_exact)
    ) * np.float32(num_buckets - max_exact)
    large = max_exact + int(np.float32(value))
    return ret + min(large, num_buckets - 1)


def layer_norm(x, weight, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def softmax(x):
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)


class Mpnet:
    def __init__(self, model_dir):
        self.w = {k: v.astype(np.float64) for k, v in load_file(os.path.join(model_dir, "model.safetensors")).items()}
        config = json.load(open(os.path.join(model_dir, "config.json")))
        self.eps = config["layer_norm_eps"]
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.pad = config["pad_token_id"]

    def linear(self, x, name):
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def embed_ids(self, ids):
        w = self.w
        length = len(ids)
        positions = np.arange(length) + self.pad + 1
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][positions]
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        buckets = np.array([[relative_bucket(k - q) for k in range(length)] for q in range(length)])
        bias = w["encoder.relative_attention_bias.weight"][buckets]  # [q, k, heads]
        bias = bias.transpose(2, 0, 1)  # [heads, q, k]
        head_dim = x.shape[1] // self.heads
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."
            q = self.linear(x, p + "attention.attn.q").reshape(length, self.heads, head_dim).transpose(1, 0, 2)
            k = self.linear(x, p + "attention.attn.k").reshape(length, self.heads, head_dim).transpose(1, 0, 2)
            v = self.linear(x, p + "attention.attn.v").reshape(length, self.heads, head_dim).transpose(1, 0, 2)
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(head_dim) + bias
            context = (softmax(scores) @ v).transpose(1, 0, 2).reshape(length, -1)
            attended = self.linear(context, p + "attention.attn.o")
            x = layer_norm(attended + x, w[p + "attention.LayerNorm.weight"], w[p + "attention.LayerNorm.bias"], self.eps)
            inner = gelu(self.linear(x, p + "intermediate.dense"))
            out = self.linear(inner, p + "output.dense")
            x = layer_norm(out + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps)
        pooled = x.mean(axis=0)
        return pooled / np.linalg.norm(pooled)


SENTENCES = [
    "How do I start a podcast about Python web frameworks?",
    "Booking guests for a true crime show takes patience.",
    "The quarterly earnings call covered revenue growth and margins.",
    "A recipe for sourdough bread with a long cold fermentation.",
    "Interview with the maintainer of a popular open source database.",
    "What is the best way to launch a show on web development with Python?",
]

EDGE_CASES = [
    "Café déjà vu — naïve résumé!",
    "ÀÉÎÕÜ çñ ßtraße İstanbul",
    "日本語のポッドキャスト 中文播客",
    "emoji 🎙️🎧 and symbols ©®™ ± ½",
    "tabs\tnew\nlines\r\nand  double  spaces",
    "URLs like https://example.com/path?x=1&y=2#frag and emails me@example.org",
    "hyphen-ated words, don't won't it's; (parens) [brackets] {braces}",
    "a" * 120 + " supercalifragilisticexpialidocious",
    "numbers 3.14159 1,000,000 2024-11-22 12:30pm",
    "zero\u200bwidth\u00adsoft hyphen \u0000 null and \ufffd replacement",
    "Ελληνικά Русский العربية עברית हिन्दी",
    "",
]


def corpus_lines(corpus_dir, limit_per_file=6):
    transcripts = os.path.join(corpus_dir, "transcripts")
    picked = []
    for sub in ("talkpython", "changelog"):
        folder = os.path.join(transcripts, sub)
        for name in sorted(os.listdir(folder))[:12]:
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            taken = 0
            for number, line in enumerate(lines, start=1):
                if len(line) < 40:
                    continue
                if number % 7 != 0:
                    continue
                picked.append((f"transcripts/{sub}/{name}", number, line))
                taken += 1
                if taken == limit_per_file:
                    break
    return picked


def main():
    model_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/podlens-models/all-mpnet-base-v2")
    corpus_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../../shared/corpus")
    out_dir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "../../indexer/tests/embedding_fixtures")
    tokenizer = load_tokenizer(model_dir)

    lines = []
    for path, number, text in corpus_lines(corpus_dir):
        lines.append({"file": path, "line": number, "ids": tokenizer.encode(text).ids})
    edges = [{"text": text, "ids": tokenizer.encode(text).ids} for text in EDGE_CASES]
    with open(os.path.join(out_dir, "tokenizer_ids.json"), "w", encoding="utf-8") as out:
        json.dump({"max_seq_length": MAX_SEQ_LENGTH, "corpus_lines": lines, "edge_cases": edges}, out, ensure_ascii=False)
        out.write("\n")

    model = Mpnet(model_dir)
    vectors = []
    for text in SENTENCES:
        ids = tokenizer.encode(text).ids
        vector = model.embed_ids(ids)
        vectors.append({"text": text, "ids": ids, "vector": [round(float(v), 7) for v in vector]})
    with open(os.path.join(out_dir, "mpnet_vectors.json"), "w", encoding="utf-8") as out:
        json.dump({"sentences": vectors}, out)
        out.write("\n")
    similarities = [[round(float(np.dot(a["vector"], b["vector"])), 4) for b in vectors] for a in vectors]
    print("pairwise cosine of the reference sentences:")
    for row in similarities:
        print(" ".join(f"{v:6.3f}" for v in row))


if __name__ == "__main__":
    main()
