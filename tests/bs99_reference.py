#!/usr/bin/python3
"""Independent reference implementation of BS99 (Bobenko-Suris discrete Lagrange top) for the heavy
symmetric top in the director formulation of betsch-ggl Sect. 6.2.

Sources: /work/shared/papers/notes/betsch-ggl.md  §1.6 (BS99 step), §2.2 (top: mass matrix (101),
initial data (108)-(112), exact steady precession), and the paper 001_e052de82a54ec15c.txt §6.2.
The attitude reconstruction (the spin factor, the exact rotation by h s about the body axis) is not in
the notes; it follows the brief (changed by the C author from cay(h s e3) to the exact rotation, which
is the body factor of the exact flow R = Phi R0 exp(s t e3^) for constant s).

Usage: python3 bs99_reference.py [--m X] [--I1 X] [--I3 X] [--l X] [--gravity X] [--alpha0 X]
                                  [--omega_p X] --h H --N N [--every K]
       python3 bs99_reference.py --selftest
CSV on stdout: t,q1..q12,p1..p12,mm1..mm3 (q = (phi, d1, d2, d3), p = M v, mm = angular momentum about tip).
"""
import argparse
import math
import sys

import numpy as np

E3 = np.array([0.0, 0.0, 1.0])
DEFAULTS = dict(m=0.225 * math.pi, I1=1.6875e-4 * math.pi, I3=1.6875e-4 * math.pi, l=0.075,
                gravity=9.81, alpha0=math.pi / 3, omega_p=10.0)   # notes §2.2 (metis cone values)
OTHER = dict(m=1.3, I1=2e-3, I3=3.1e-3, l=0.2, gravity=7.0, alpha0=0.7, omega_p=-4.0)


def hat(a):
    """hat(a) x = a × x."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def cay(a):
    """Cayley map cay(a) = (I - hat(a)/2)^{-1} (I + hat(a)/2), an exact rotation (notes §1.6)."""
    A = 0.5 * hat(a)
    return np.linalg.solve(np.eye(3) - A, np.eye(3) + A)


def rot(axis, ang):
    c, s = math.cos(ang), math.sin(ang)
    if axis == 1:
        return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])   # (108)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])        # about e3


class Top:
    """Heavy symmetric top, director formulation (paper (100)-(112), notes §2.2). I2 = I1."""

    def __init__(self, m, I1, I3, l, gravity, alpha0, omega_p):
        self.m, self.I1, self.I3, self.l, self.g = m, I1, I3, l, gravity
        self.alpha0, self.omega_p = alpha0, omega_p
        I = (I1, I1, I3)
        # Euler tensor E_i = (I_j + I_k - I_i)/2, (i,j,k) cyclic  (101); NOT I_i (notes §5 pitfall 8)
        self.E = [0.5 * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]) for i in range(3)]
        self.Mdiag = np.repeat([m] + self.E, 3)
        self.I1p = I1 + m * l * l          # inertia about the tip, perpendicular to the axis
        self.J3 = I3                       # axial inertia
        self.c = m * gravity * l           # torque constant
        self.R0 = rot(1, alpha0)
        # spin of steady precession (112)
        self.omega_s = (m * gravity * l / (I3 * omega_p)
                        + (I1 + m * l * l - I3) / I3 * omega_p * math.cos(alpha0))

    def qp(self, R, omega):
        """q = (l d3, d1, d2, d3) from R = [d1 d2 d3]; v_i = omega × q_i for all four blocks; p = M v."""
        q = np.concatenate([self.l * R[:, 2], R[:, 0], R[:, 1], R[:, 2]])
        v = np.concatenate([np.cross(omega, q[3 * i:3 * i + 3]) for i in range(4)])
        return q, self.Mdiag * v

    def initial(self):
        """(108)-(111): R0 = rotation about e1 by alpha0, omega0 = omega_p e3 + omega_s d3^0."""
        return self.qp(self.R0, self.omega_p * E3 + self.omega_s * self.R0[:, 2])

    def exact(self, t):
        """Steady precession R(t) = Rz(omega_p t) R0 Rz(omega_s t), omega = omega_p e3 + omega_s d3(t)."""
        R = rot(3, self.omega_p * t) @ self.R0 @ rot(3, self.omega_s * t)
        return self.qp(R, self.omega_p * E3 + self.omega_s * R[:, 2])


def ang_mom(q, p):
    """Total angular momentum about the origin (tip): sum_i q_i × p_i (107), director blocks included."""
    return sum(np.cross(q[3 * i:3 * i + 3], p[3 * i:3 * i + 3]) for i in range(4))


def bs99(top, h, N):
    """Generator of (n, q, p, mm) for n = 0..N. BS99 step of notes §1.6 plus attitude reconstruction."""
    q, p = top.initial()
    R = np.column_stack([q[3:6], q[6:9], q[9:12]])
    mm = ang_mom(q, p)                          # mm^0 = phi x p_phi + sum d_i x p_di
    yield 0, q, p, mm.copy()                    # node 0 is the initial data itself
    k = 1.0 / top.J3 - 1.0 / top.I1p
    for n in range(1, N + 1):
        d3 = R[:, 2]
        mm = mm + h * top.c * np.cross(E3, d3)  # explicit momentum update (notes §1.6)
        w = mm / top.I1p
        s = k * np.dot(mm, d3)                  # spin rate; mm.d3 conserved by the scheme
        # d3^{n+1} = cay(h w) d3^n solves d3^{n+1}-d3^n = (h/I1') mm^{n+1} × (d3^n+d3^{n+1})/2
        c, sn = math.cos(h * s), math.sin(h * s)
        Rs = np.array([[c, -sn, 0.0], [sn, c, 0.0], [0.0, 0.0, 1.0]])   # exp(h s e3^)
        R = cay(h * w) @ R @ Rs    # right factor: rotation about the body axis
        d3 = R[:, 2]
        omega = mm / top.I1p + k * np.dot(mm, d3) * d3   # w' + s' d3^{n+1}
        q, p = top.qp(R, omega)
        yield n, q, p, mm.copy()


def fmt(x):
    return format(float(x) + 0.0, '.17g')   # 17 significant digits; +0.0 maps -0 to 0


def run_csv(top, h, N, every):
    out = sys.stdout
    out.write('t,' + ','.join(['q%d' % i for i in range(1, 13)] + ['p%d' % i for i in range(1, 13)]
                              + ['mm1', 'mm2', 'mm3']) + '\n')
    for n, q, p, mm in bs99(top, h, N):
        if n % every == 0 or n == N:
            out.write(','.join(fmt(x) for x in np.concatenate([[n * h], q, p, mm])) + '\n')


def structure_check(name, top, h=0.002, N=1000):
    """(a) orthonormality of the directors and phi = l d3; (b) mm.e3, mm.d3 conserved; also sum q×p = mm."""
    orth = tip = jdiff = 0.0
    de3 = dd3 = 0.0
    prev = None
    for n, q, p, mm in bs99(top, h, N):
        D = np.column_stack([q[3:6], q[6:9], q[9:12]])
        orth = max(orth, np.abs(D.T @ D - np.eye(3)).max())
        tip = max(tip, np.abs(q[0:3] - top.l * q[9:12]).max())
        jdiff = max(jdiff, np.abs(ang_mom(q, p) - mm).max() / max(1.0, np.abs(mm).max()))
        cur = (mm[2], np.dot(mm, q[9:12]))
        if prev is None:
            first = cur
        else:
            de3 = max(de3, abs(cur[0] - prev[0]))
            dd3 = max(dd3, abs(cur[1] - prev[1]))
        prev = cur
    drift3, driftd3 = abs(prev[0] - first[0]), abs(prev[1] - first[1])
    scale = max(1.0, abs(first[0]), abs(first[1]))
    # round-off criteria (notes §5 pitfall 19): per step <= 1e-14*max(1,|X|); 1000 steps => <= 1e-12
    ok_a = orth <= 1e-12 and tip <= 1e-14
    ok_b = de3 <= 1e-14 * scale and dd3 <= 1e-14 * scale and drift3 <= 1e-12 * scale \
        and driftd3 <= 1e-12 * scale
    print('[%s] h=%g N=%d: max|d_i.d_j-delta_ij|=%.2e  max|phi-l d3|=%.2e  -> (a) %s'
          % (name, h, N, orth, tip, 'OK' if ok_a else 'FAIL'))
    print('[%s]   max step |d(mm.e3)|=%.2e |d(mm.d3)|=%.2e, drift %.2e %.2e  -> (b) %s'
          % (name, de3, dd3, drift3, driftd3, 'OK' if ok_b else 'FAIL'))
    print('[%s]   max|sum q_i x p_i - mm|/max(1,|mm|) = %.2e (info)' % (name, jdiff))
    return ok_a and ok_b


def convergence(name, top, T=0.001, hs=(1e-4, 5e-5, 2.5e-5, 1e-5)):
    """(c) relative errors (113)-(114) of phi3 = q3 and p_phi = p1..3 at t=T against steady precession."""
    qx, px = top.exact(T)
    print('[%s] omega_s = %.17g; exact phi3(T) = %.17g, p_phi(T) = %s'
          % (name, top.omega_s, qx[2], np.array2string(px[0:3], precision=10)))
    print('[%s]   %-9s %-12s %-7s %-12s %-7s' % (name, 'h', 'e_q', 'order', 'e_p', 'order'))
    prev = None
    for h in hs:
        N = int(round(T / h))
        for n, q, p, mm in bs99(top, h, N):
            pass
        eq = abs(q[2] - qx[2]) / abs(qx[2])
        ep = np.linalg.norm(p[0:3] - px[0:3]) / np.linalg.norm(px[0:3])
        if prev is None:
            oq = op = '-'
        else:
            r = math.log(prev[0] / h)
            oq, op = '%.3f' % (math.log(prev[1] / eq) / r), '%.3f' % (math.log(prev[2] / ep) / r)
        print('[%s]   %-9g %-12.4e %-7s %-12.4e %-7s' % (name, h, eq, oq, ep, op))
        prev = (h, eq, ep)


def selftest():
    ok = True
    for name, par in (('default', DEFAULTS), ('other', OTHER)):
        top = Top(**par)
        ok = structure_check(name, top) and ok
        convergence(name, top)
    print('SELFTEST', 'PASSED' if ok else 'FAILED')
    return 0 if ok else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    for key, val in DEFAULTS.items():
        ap.add_argument('--' + key, type=float, default=val)
    ap.add_argument('--h', type=float)
    ap.add_argument('--N', type=int)
    ap.add_argument('--every', type=int, default=1)
    ap.add_argument('--selftest', action='store_true')
    a = ap.parse_args(argv)
    if a.selftest:
        return selftest()
    par = {k: getattr(a, k) for k in DEFAULTS}
    if not all(math.isfinite(v) for v in par.values()):
        ap.error('parameters must be finite')
    if a.h is None or a.N is None:
        ap.error('--h and --N are required')
    if not (math.isfinite(a.h) and a.h > 0):
        ap.error('h must be > 0')
    if a.N < 1:
        ap.error('N must be >= 1')
    if a.every < 1:
        ap.error('every must be >= 1')
    if not par['m'] > 0:
        ap.error('m must be > 0')
    if par['omega_p'] == 0:
        ap.error('omega_p must be nonzero')
    top = Top(**par)                   # I1 > 0, I3 > 0 follow from E_i > 0 (E_i + E_j = I_k)
    if not min(top.E) > 0:
        ap.error('Euler tensor entries (I_j+I_k-I_i)/2 must be > 0 (got %r)' % (top.E,))
    run_csv(top, a.h, a.N, a.every)
    return 0


if __name__ == '__main__':
    sys.exit(main())
