"""Exercise 05's right answers, worked out apart from the program, from the kernel's shape: one
__syncthreads after the load and one for each stride of the block loop (block / 2 down to 64);
lane 0 passes two __syncwarp a level in the own tail and one in the narrowing tail, at each of the
six strides 32, 16, ..., 1; at stride s the own tail's lane t adds where t + s < block, the
narrowing tail's lane t where t < s as well."""

STRIDES = (32, 16, 8, 4, 2, 1)


def barriers(block):
    count, stride = 1, block // 2
    while stride > 32:
        count, stride = count + 1, stride // 2
    return count


def right(root):
    answers = {f"barriers_b{b}": str(barriers(b)) for b in (32, 64, 128, 512)}
    answers["syncwarps_own"] = str(2 * len(STRIDES))
    answers["syncwarps_narrowing"] = str(sum(1 for s in STRIDES if 0 < s))  # lane 0 < every s
    answers["tail_adds_own"] = str(sum(1 for s in STRIDES for t in range(32) if t + s < 256))
    answers["tail_adds_narrowing"] = str(
        sum(1 for s in STRIDES for t in range(32) if t < s and t + s < 256))
    return answers


WRONGS = (("barriers_b64", "2"), ("barriers_b512", "10"), ("syncwarps_narrowing", "12"),
          ("tail_adds_own", "63"))
