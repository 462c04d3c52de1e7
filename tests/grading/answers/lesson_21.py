"""Exercise 21's right answers, worked out apart from the program and from the file it reads (the
course's recorded plan): the plan's rules of lessons/21_any_axes/README.md applied to the tensor
here. Each axis gets its steps in the caller's order (the output row-major over the kept axes, the
reduced numbering row-major over the reduced ones); size-1 axes go; the rest are sorted by stride,
largest first (stride 0 counts as the largest; ties keep the caller's order); two neighbours fold
where both are kept or both reduced and the outer's input, output and numbering steps are each the
inner's times its size. The innermost merged axis names the side: reduced, rows where it is the one
reduced axis with stride 1 and at most one kept axis; kept, columns where there is at most one axis
a side and the innermost stride is 1; otherwise the strided strategy of that side."""

SIZES = (2, 3, 4, 5)
STRIDES = (60, 1, 15, 3)
AXIS_SETS = {"1": {1}, "0_2": {0, 2}, "1_3": {1, 3}, "none": set()}


def plan(reduced):
    steps = {}
    out_step = index_step = 1
    for i in reversed(range(len(SIZES))):
        if i in reduced:
            steps[i] = (0, index_step)
            index_step *= SIZES[i]
        else:
            steps[i] = (out_step, 0)
            out_step *= SIZES[i]
    # [size, stride, out step, index step, reduced]
    live = [[SIZES[i], STRIDES[i], *steps[i], i in reduced]
            for i in range(len(SIZES)) if SIZES[i] != 1]
    live.sort(key=lambda a: -(float("inf") if a[1] == 0 else a[1]))  # stable
    merged = []
    for b in live:
        if merged:
            a = merged[-1]
            if (a[4] == b[4] and a[1] == b[0] * b[1] and a[2] == b[0] * b[2]
                    and a[3] == b[0] * b[3]):
                merged[-1] = [a[0] * b[0], b[1], b[2], b[3], b[4]]
                continue
        merged.append(b)
    kept = sum(1 for a in merged if not a[4])
    red = len(merged) - kept
    if not merged or not merged[-1][4]:
        simple = kept <= 1 and red <= 1 and (not merged or merged[-1][1] == 1)
        strategy = "columns" if simple else "strided, kept innermost"
    else:
        simple = red == 1 and kept <= 1 and merged[-1][1] == 1
        strategy = "rows" if simple else "strided, reduced innermost"
    text = " ".join(f"{a[0]}{'R' if a[4] else 'K'}/{a[1]}" for a in merged)
    return text, strategy


def right(root):
    answers = {}
    for key, axes in AXIS_SETS.items():
        answers["merged_" + key], answers["strategy_" + key] = plan(axes)
    return answers


# Answers that are wrong, each named by the program without its value: the kept axes merged with no
# regard for the output's order, the axes in the caller's order instead of by stride, and two
# strided plans taken for the plain matrix of their side.
WRONGS = (("merged_none", "120K/1"), ("merged_1", "2K/60 3R/1 20K/3"),
          ("strategy_1_3", "rows"), ("strategy_0_2", "columns"))
