#!/usr/bin/python3
# The per-phase means `regionbench analyze` computes, done with pandas
# (read_csv + groupby) for tests/perf-analyze: used pages and active regions
# per sample from samples.csv, usable free share per buddy sample from
# buddy.csv (pageblock order 9).  Prints "phase,metric,mean" lines.
import sys

import numpy as np
import pandas as pd

d = sys.argv[1]
s = pd.read_csv(f"{d}/samples.csv", usecols=["t_s", "phase", "node", "region",
    "present_pages", "free_pages"])
s["used"] = (s["present_pages"] - s["free_pages"]).clip(lower=0)
per_region = s.groupby(["phase", "t_s", "node", "region"], sort=False)["used"].sum()
per_sample = per_region.groupby(level=["phase", "t_s"], sort=False).agg(
    used="sum", active=lambda u: (u > 0).sum())
means = per_sample.groupby(level="phase", sort=False).mean()
for phase, row in means.iterrows():
    print(f"{phase},used_pages.mean,{row['used']:.6f}")
    print(f"{phase},active_regions.mean,{row['active']:.6f}")

b = pd.read_csv(f"{d}/buddy.csv", usecols=["t_s", "phase", "order",
    "free_blocks"])
b["pages"] = b["free_blocks"] * np.left_shift(1, b["order"])
b["high"] = b["pages"].where(b["order"] >= 9, 0)
per_buddy = b.groupby(["phase", "t_s"], sort=False)[["pages", "high"]].sum()
per_buddy["share"] = per_buddy["high"] / per_buddy["pages"]
for phase, mean in per_buddy.groupby(level="phase", sort=False)["share"].mean().items():
    print(f"{phase},usable_free_share.mean,{mean:.6f}")
