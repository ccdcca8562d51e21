"""Java's ``StrictMath.log``, ``log1p`` and ``expm1``, and the source's ``PortableMath.exp``,
over numpy arrays, to the bit.

The JVM source's Zipf draw (``ZipfSampler``) computes with these functions, and a row must be
the same whether the jar or this package makes it. numpy's ``log`` and friends come from the C
library and may differ from ``StrictMath`` in the last bit, which can move a draw across a rank
boundary. ``StrictMath`` is specified as fdlibm 5.3's algorithms; these are the same algorithms
(the same reductions, polynomial coefficients and order of operations) in numpy, whose ``+``,
``-``, ``*`` and ``/`` on float64 are IEEE-754 round-to-nearest, as Java's are. Branches are
taken with masks, so each element follows exactly the path fdlibm takes for it.

Only the arguments the Zipf draw passes need to be right, and the tests check each function
against the JVM's on hundreds of thousands of such arguments: ``log`` of positive normal
numbers, ``log1p`` of numbers above -1, ``expm1`` of finite numbers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]

_LN2_HI = 6.93147180369123816490e-01  # 0x3fe62e42 fee00000
_LN2_LO = 1.90821492927058770002e-10  # 0x3dea39ef 35793c76
_INV_LN2 = 1.44269504088896338700e00

# log's and log1p's polynomial (fdlibm names them Lg1..Lg7 and Lp1..Lp7; they are equal).
_L1 = 6.666666666666735130e-01
_L2 = 3.999999999940941908e-01
_L3 = 2.857142874366239149e-01
_L4 = 2.222219843214978396e-01
_L5 = 1.818357216161805012e-01
_L6 = 1.531383769920937332e-01
_L7 = 1.479819860511658591e-01

# expm1's scaled coefficients.
_Q1 = -3.33333333333331316428e-02
_Q2 = 1.58730158725481460165e-03
_Q3 = -7.93650757867487942473e-05
_Q4 = 4.00821782732936239552e-06
_Q5 = -2.01099218183624371326e-07


def _high(x: Floats) -> npt.NDArray[np.int32]:
    """The high 32 bits of each double, as fdlibm's signed ``__HI``."""
    return (x.view(np.int64) >> 32).astype(np.int32)


def _with_high(x: Floats, high: npt.NDArray[np.int32] | npt.NDArray[np.int64]) -> Floats:
    """``x`` with its high 32 bits replaced (fdlibm's ``__HI(x) = high``)."""
    low = x.view(np.int64) & np.int64(0xFFFFFFFF)
    return ((high.astype(np.int64) << 32) | low).view(np.float64)


def _from_high(high: npt.NDArray[np.int32] | npt.NDArray[np.int64]) -> Floats:
    """The double whose high word is ``high`` and whose low word is 0."""
    return (high.astype(np.int64) << 32).view(np.float64)


def log(x: Floats) -> Floats:
    """``StrictMath.log`` of positive normal doubles (the Zipf draw takes logs of x >= 1)."""
    x = np.asarray(x, dtype=np.float64)
    hx = _high(x).astype(np.int64)
    k = (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _with_high(x, hx | (i ^ 0x3FF00000))  # normalize x or x/2
    k += i >> 20
    f = x - 1.0
    dk = k.astype(np.float64)
    out = np.empty_like(f)

    tiny = (0x000FFFFF & (2 + hx)) < 3  # |f| < 2**-20
    if tiny.any():
        ft, kt, dkt = f[tiny], k[tiny], dk[tiny]
        r = ft * ft * (0.5 - 0.33333333333333333 * ft)
        value = np.where(kt == 0, ft - r, dkt * _LN2_HI - ((r - dkt * _LN2_LO) - ft))
        zero_f = ft == 0.0
        value = np.where(zero_f, np.where(kt == 0, 0.0, dkt * _LN2_HI + dkt * _LN2_LO), value)
        out[tiny] = value
    rest = ~tiny
    if rest.any():
        f, k, dk, hx = f[rest], k[rest], dk[rest], hx[rest]
        s = f / (2.0 + f)
        z = s * s
        i = hx - 0x6147A
        w = z * z
        j = 0x6B851 - hx
        t1 = w * (_L2 + w * (_L4 + w * _L6))
        t2 = z * (_L1 + w * (_L3 + w * (_L5 + w * _L7)))
        i |= j
        r = t2 + t1
        hfsq = 0.5 * f * f
        big = np.where(
            k == 0,
            f - (hfsq - s * (hfsq + r)),
            dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO)) - f),
        )
        small = np.where(k == 0, f - s * (f - r), dk * _LN2_HI - ((s * (f - r) - dk * _LN2_LO) - f))
        out[rest] = np.where(i > 0, big, small)
    return out


def log1p(x: Floats) -> Floats:
    """``StrictMath.log1p`` of finite doubles from -1 on."""
    x = np.asarray(x, dtype=np.float64)
    hx = _high(x).astype(np.int64)
    ax = hx & 0x7FFFFFFF
    out = np.empty_like(x)

    below = hx < 0x3FDA827A  # x < 0.41422
    tiny = below & (ax < 0x3E200000)  # |x| < 2**-29
    if tiny.any():
        xt = x[tiny]
        out[tiny] = np.where(ax[tiny] < 0x3C900000, xt, xt - xt * xt * 0.5)
    # -0.2929 < x < 0.41422: no reduction (k = 0).
    direct = below & ~tiny & ((hx > 0) | (hx <= np.int64(np.int32(np.uint32(0xBFD2BEC3).view(np.int32)))))
    reduced = ~tiny & ~direct

    out[x == -1.0] = -np.inf
    reduced &= x != -1.0
    if direct.any():
        f = x[direct]
        out[direct] = _log1p_tail(
            f, np.zeros(f.shape, np.int64), np.zeros_like(f), np.ones(f.shape, np.int64)
        )
    if reduced.any():
        xr, hr = x[reduced], hx[reduced]
        small = hr < 0x43400000
        u = np.where(small, 1.0 + xr, xr)
        hu = _high(u).astype(np.int64)
        k = (hu >> 20) - 1023
        c = np.where(small, np.where(k > 0, 1.0 - (u - xr), xr - (u - 1.0)), 0.0)
        c = np.where(small, c / u, 0.0)
        hu &= 0x000FFFFF
        low = hu < 0x6A09E
        u = np.where(low, _with_high(u, hu | 0x3FF00000), _with_high(u, hu | 0x3FE00000))
        k = np.where(low, k, k + 1)
        hu = np.where(low, hu, (0x00100000 - hu) >> 2)
        f = u - 1.0
        out[reduced] = _log1p_tail(f, k, c, hu)
    return out


def _log1p_tail(f: Floats, k: npt.NDArray[np.int64], c: Floats, hu: npt.NDArray[np.int64]) -> Floats:
    """log1p's last step: log(1 + f) + k ln 2 + c, for the reduced f."""
    dk = k.astype(np.float64)
    hfsq = 0.5 * f * f
    s = f / (2.0 + f)
    z = s * s
    r = z * (_L1 + z * (_L2 + z * (_L3 + z * (_L4 + z * (_L5 + z * (_L6 + z * _L7))))))
    general = np.where(
        k == 0,
        f - (hfsq - s * (hfsq + r)),
        dk * _LN2_HI - ((hfsq - (s * (hfsq + r) + (dk * _LN2_LO + c))) - f),
    )
    # |f| < 2**-20
    rt = hfsq * (1.0 - 0.66666666666666666 * f)
    near = np.where(k == 0, f - rt, dk * _LN2_HI - ((rt - (dk * _LN2_LO + c)) - f))
    near = np.where(f == 0.0, np.where(k == 0, 0.0, dk * _LN2_HI + (c + dk * _LN2_LO)), near)
    return np.where(hu == 0, near, general)


def expm1(x: Floats) -> Floats:
    """``StrictMath.expm1`` of finite doubles."""
    x = np.asarray(x, dtype=np.float64)
    hx = _high(x).astype(np.int64)
    negative = hx < 0
    hx &= 0x7FFFFFFF
    out = np.empty_like(x)

    overflow = ~negative & (x > 7.09782712893383973096e02)
    out[overflow] = np.inf
    minus_one = negative & (hx >= 0x4043687A)  # x < -56 ln 2
    out[minus_one] = -1.0
    tiny = hx < 0x3C900000  # |x| < 2**-54
    out[tiny] = x[tiny]
    todo = ~(overflow | minus_one | tiny)
    if not todo.any():
        return out

    x, hx, negative = x[todo], hx[todo], negative[todo]
    # Argument reduction: x = k ln 2 + r, for |x| > ln 2 / 2.
    near = (hx > 0x3FD62E42) & (hx < 0x3FF0A2B2)
    far = hx >= 0x3FF0A2B2
    k = np.zeros(x.shape, np.int64)
    k[near] = np.where(negative[near], -1, 1)
    with np.errstate(invalid="ignore"):
        k[far] = np.trunc(_INV_LN2 * x[far] + np.where(negative[far], -0.5, 0.5)).astype(np.int64)
    t = k.astype(np.float64)
    hi = np.where(near, np.where(negative, x + _LN2_HI, x - _LN2_HI), np.where(far, x - t * _LN2_HI, x))
    lo = np.where(near, np.where(negative, -_LN2_LO, _LN2_LO), np.where(far, t * _LN2_LO, 0.0))
    reduced = near | far
    r = np.where(reduced, hi - lo, x)
    c = np.where(reduced, (hi - r) - lo, 0.0)

    hfx = 0.5 * r
    hxs = r * hfx
    r1 = 1.0 + hxs * (_Q1 + hxs * (_Q2 + hxs * (_Q3 + hxs * (_Q4 + hxs * _Q5))))
    t3 = 3.0 - r1 * hfx
    e = hxs * ((r1 - t3) / (6.0 - r * t3))
    result = r - (r * e - hxs)  # k == 0

    e = r * (e - c) - c
    e -= hxs
    shifted_k = np.clip(k, -1100, 1100)
    minus = 0.5 * (r - e) - 0.5  # k == -1
    plus = np.where(r < -0.25, -2.0 * (e - (r + 0.5)), 1.0 + 2.0 * (r - e))  # k == 1
    # k <= -2 or k > 56: exp(x) - 1 is exp(x) to working precision.
    y = 1.0 - (e - r)
    extreme = _with_high(y, _high(y).astype(np.int64) + (shifted_k << 20)) - 1.0
    # 2 <= k < 20 and 20 <= k <= 56.
    one_minus = _from_high(0x3FF00000 - (np.int64(0x200000) >> np.clip(k, 0, 63)))
    y_low = one_minus - (e - r)
    low_k = _with_high(y_low, _high(y_low).astype(np.int64) + (shifted_k << 20))
    two_minus_k = _from_high((0x3FF - np.clip(k, 0, 1023)) << 20)
    y_high = (r - (e + two_minus_k)) + 1.0
    high_k = _with_high(y_high, _high(y_high).astype(np.int64) + (shifted_k << 20))

    result = np.select(
        [k == 0, k == -1, k == 1, (k <= -2) | (k > 56), k < 20],
        [result, minus, plus, extreme, low_k],
        high_k,
    )
    out[todo] = result
    return out


#: 2^(j/32) for j = 0..31, exactly as ``StrictMath.pow(2.0, j / 32.0)`` gives them on the JVM
#: (the C library's ``pow`` differs in the last bit for four of them).
_TWO_TO_FRACTIONS = np.array(
    [
        float.fromhex(h)
        for h in (
            "0x1.0p0 0x1.059b0d3158574p0 0x1.0b5586cf9890fp0 0x1.11301d0125b51p0 0x1.172b83c7d517bp0 "
            "0x1.1d4873168b9aap0 0x1.2387a6e756238p0 0x1.29e9df51fdee1p0 0x1.306fe0a31b715p0 "
            "0x1.371a7373aa9cbp0 0x1.3dea64c123422p0 0x1.44e086061892dp0 0x1.4bfdad5362a27p0 "
            "0x1.5342b569d4f82p0 0x1.5ab07dd485429p0 0x1.6247eb03a5585p0 0x1.6a09e667f3bcdp0 "
            "0x1.71f75e8ec5f74p0 0x1.7a11473eb0187p0 0x1.82589994cce12p0 0x1.8ace5422aa0dcp0 "
            "0x1.93737b0cdc5e5p0 0x1.9c49182a3f09p0 0x1.a5503b23e255cp0 0x1.ae89f995ad3aep0 "
            "0x1.b7f76f2fb5e47p0 0x1.c199bdd85529cp0 0x1.cb720dcef9069p0 0x1.d5818dcfba487p0 "
            "0x1.dfc97337b9b5fp0 0x1.ea4afa2a490dap0 0x1.f50765b6e454p0"
        ).split()
    ]
)
_STEPS_OVER_LN2 = 32 / 0.6931471805599453
_STEP_HIGH = 0.6931471803691238 / 32
_STEP_LOW = 1.9082149292705877e-10 / 32


def portable_exp(x: Floats) -> Floats:
    """The JVM source's ``PortableMath.exp``, e^x in plain IEEE arithmetic, to the bit."""
    x = np.asarray(x, dtype=np.float64)
    n = np.rint(x * _STEPS_OVER_LN2)
    r = (x - n * _STEP_HIGH) - n * _STEP_LOW
    steps = np.clip(n, -(2**31), 2**31 - 1).astype(np.int64)
    p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 + r * (1.0 / 720))))))
    with np.errstate(over="ignore", under="ignore"):
        value = np.ldexp(_TWO_TO_FRACTIONS[steps & 31] * p, (steps >> 5).astype(np.int32))
    value = np.where(x > 709.782712893384, np.inf, value)
    value = np.where(x < -745.1332191019412, 0.0, value)
    return np.where(np.isnan(x), x, value)
