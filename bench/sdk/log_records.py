"""Logs records through the official `argilla` SDK and prints where the time went.

Run by bench/sdk-log.ts (which starts the server and passes its URL and key):
    python log_records.py <api_url> <api_key> <records> <with_vector 0|1>
Prints `log_start` as the log begins, then `name: value` lines: the SDK's wall time for
`dataset.records.log()` and this process's CPU seconds during it.
"""
import random
import sys
import time

import argilla as rg

api_url, api_key, records, with_vector = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
DIMENSIONS = 384
rng = random.Random(7)
vocabulary = [f"w{rank}" for rank in range(6_000)]
weights = [1 / (rank + 1) ** 1.07 for rank in range(6_000)]


def sentence(words: int) -> str:
    return " ".join(rng.choices(vocabulary, weights=weights, k=words))


client = rg.Argilla(api_url=api_url, api_key=api_key, timeout=600)
workspace = rg.Workspace(name="sdk-bench", client=client).create()
settings = rg.Settings(
    fields=[rg.TextField(name="prompt"), rg.TextField(name="response")],
    questions=[rg.LabelQuestion(name="quality", labels=["good", "bad", "neutral"])],
    metadata=[
        rg.TermsMetadataProperty(name="category"),
        rg.IntegerMetadataProperty(name="length"),
        rg.FloatMetadataProperty(name="score"),
    ],
    vectors=[rg.VectorField(name="emb", dimensions=DIMENSIONS)] if with_vector else [],
)
dataset = rg.Dataset(name="sdk-bench", workspace=workspace, settings=settings, client=client).create()

rows = []
for n in range(records):
    row = {
        "prompt": sentence(25),
        "response": sentence(45),
        "category": f"cat-{rng.randrange(20)}",
        "length": rng.randrange(1000),
        "score": round(rng.random(), 4),
        "quality": rng.choice(["good", "bad", "neutral"]),
    }
    if with_vector:
        row["emb"] = [rng.uniform(-1, 1) for _ in range(DIMENSIONS)]
    rows.append(row)

print("log_start", flush=True)
wall_start, cpu_start = time.perf_counter(), time.process_time()
dataset.records.log(rows)
wall, cpu = time.perf_counter() - wall_start, time.process_time() - cpu_start
print(f"sdk_log_seconds: {wall:.1f}")
print(f"sdk_process_cpu_s: {cpu:.1f}")
