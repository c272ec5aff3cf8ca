#!/usr/bin/python3
"""Independent reference implementation (numpy) of McLachlan & Perlmutter's
second-order discrete Lagrange-d'Alembert integrator, J. Nonlinear Sci. 16
(2006), eq. (4.18), for mechanical systems L = 1/2 v'Mv - V(q) (M constant)
with nonholonomic constraints A(q) v + a(q) = 0, written from the equations
of the scheme (below) with its own system definitions and its own solver;
no part of it is derived from the project's C sources.

The step (q0, p0) -> (q1, p1), harness sign (constraint force -A' mu):
    qbar = q0 + h/2 M^-1 p0            (point leapfrog, (4.18))
    qbar = (q0 + q1)/2                 (point midpoint: L_d = h L(qbar, (q1-q0)/h))
    p1   = p0 - h grad V(qbar) - h A(qbar)' mu
    q1   = q0 + h/2 M^-1 (p0 + p1)
    A(q1) M^-1 p1 + a(q1) = 0
Solved here in a different form from a Newton on (p1, mu): with the
leapfrog point qbar is known, p1 and q1 are explicit in mu, and only the
m_nh equations in mu are solved (Newton with a difference Jacobian); with
the midpoint the unknowns are (v1 = M^-1 p1, mu), Newton with a central
difference Jacobian. Iterations continue until the update stalls at
round-off.

The multiplier printed at every node is that of the continuous index-1
form at the node (q_k, p_k): d/dt (A v + a) = 0 with M vdot = -grad V - A'mu
gives (A M^-1 A') mu = D_q Phi(q, v) v - A M^-1 grad V.

Usage
    dla_reference.py SYSTEM --h H --N N [--point leapfrog|midpoint]
                     [--set name=v1,v2,... ...]
SYSTEM: nonholonomic-particle | cvt | chaotic-nh (parameters as vistudy's)
Output (stdout, CSV, %.17g): t, q1..qn, p1..pn, mu1..mu_m per node k = 0..N.
"""
import argparse
import sys

import numpy as np


def die(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(2)


class Particle:
    """demartin2018 sec. 7.1: V = k/2 (x^2 + y^2), M = m I, Phi = v_z - y v_x."""

    def __init__(self, P):
        self.m = P.get("m", [1.0])[0]
        self.k = P.get("k", [1.0])[0]
        self.q0 = np.array(P.get("q0", [1.0, 0.5, 0.0]), float)
        self.v0 = np.array(P.get("v0", [0.3, 0.8, 0.15]), float)
        self.M = self.m * np.eye(3)

    def grad_V(self, q):
        return np.array([self.k * q[0], self.k * q[1], 0.0])

    def A(self, q):
        return np.array([[-q[1], 0.0, 1.0]])

    def a(self, q):
        return np.zeros(1)

    def Dphi(self, q, v):
        # d/dq of (v_z - y v_x) at fixed v
        return np.array([[0.0, -v[0], 0.0]])


class CVT:
    """demartin2018 sec. 7.2: M = diag(m, J, m), V = (x^2 + z^2 - 2 cos y +
    eps sin 2y)/2, Phi = v_z + sin(y) v_x."""

    def __init__(self, P):
        self.m = P.get("m", [1.0])[0]
        self.J = P.get("J", [1.0])[0]
        self.eps = P.get("eps", [0.5])[0]
        hi = P.get("data", ["low"])[0] == "high"
        vy = np.sqrt(8.0) if hi else 3.0 * np.sqrt(10.0) / 5.0
        self.q0 = np.array(P.get("q0", [1.0, 0.0, 1.0]), float)
        self.v0 = np.array(P.get("v0", [0.0, vy, 0.0]), float)
        self.M = np.diag([self.m, self.J, self.m])

    def grad_V(self, q):
        return np.array([q[0], np.sin(q[1]) + self.eps * np.cos(2 * q[1]), q[2]])

    def A(self, q):
        return np.array([[np.sin(q[1]), 0.0, 1.0]])

    def a(self, q):
        return np.zeros(1)

    def Dphi(self, q, v):
        return np.array([[0.0, np.cos(q[1]) * v[0], 0.0]])


class Chaotic:
    """demartin2018 sec. 7.3 (McLachlan-Perlmutter), n = 2 mc + 1, 1-based:
    V = (|q|^2 + q_{mc+2}^2 q_{mc+3}^2 + sum_{i=1}^{mc} q_{1+i}^2 q_{mc+1+i}^2)/2,
    M = m I, Phi = v_1 + sum_{i=mc+2}^{n} q_i v_i; ensemble member j of J:
    q0 = (cos th, mc/5, ..., 1/5, 1, ..., 1), v0 = sin(th) e_2, th = j pi/(2J)."""

    def __init__(self, P):
        self.m = P.get("m", [1.0])[0]
        mc = int(P.get("m_c", [3])[0])
        J = P.get("J", [9.0])[0]
        j = P.get("j", [0.0])[0]
        self.mc, n = mc, 2 * mc + 1
        self.n = n
        th = j * np.pi / (2 * J)
        q0 = [np.cos(th)] + [(mc + 1 - i) / 5.0 for i in range(1, mc + 1)] + [1.0] * mc
        v0 = [0.0, np.sin(th)] + [0.0] * (n - 2)
        self.q0 = np.array(P.get("q0", q0), float)
        self.v0 = np.array(P.get("v0", v0), float)
        self.M = self.m * np.eye(n)
        # the quartic couplings as 0-based index pairs
        self.pairs = [(mc + 1, mc + 2)] + [(i, mc + i) for i in range(1, mc + 1)]

    def grad_V(self, q):
        g = q.copy()
        for a, b in self.pairs:
            g[a] += q[a] * q[b] ** 2
            g[b] += q[b] * q[a] ** 2
        return g

    def A(self, q):
        row = np.zeros(self.n)
        row[0] = 1.0
        row[self.mc + 1:] = q[self.mc + 1:]
        return row[None, :]

    def a(self, q):
        return np.zeros(1)

    def Dphi(self, q, v):
        row = np.zeros(self.n)
        row[self.mc + 1:] = v[self.mc + 1:]
        return row[None, :]


SYSTEMS = {"nonholonomic-particle": Particle, "cvt": CVT, "chaotic-nh": Chaotic}


def multipliers(S, q, p):
    """Index-1 multipliers at (q, p), harness sign."""
    Minv = np.linalg.inv(S.M)
    v = Minv @ p
    A = S.A(q)
    rhs = S.Dphi(q, v) @ v - A @ Minv @ S.grad_V(q)
    return np.linalg.solve(A @ Minv @ A.T, rhs)


def newton(F, x, scale):
    """Newton with a central-difference Jacobian until the update stalls."""
    best, fbest = x.copy(), np.max(np.abs(F(x)))
    for _ in range(60):
        f = F(x)
        Jm = np.empty((len(f), len(x)))
        for c in range(len(x)):
            d = 1e-6 * max(abs(x[c]), scale[c])
            e = np.zeros(len(x))
            e[c] = d
            Jm[:, c] = (F(x + e) - F(x - e)) / (2 * d)
        dx = np.linalg.solve(Jm, -f)
        x = x + dx
        fx = np.max(np.abs(F(x)))
        if fx < fbest:
            best, fbest = x.copy(), fx
        if np.all(np.abs(dx) <= 1e-16 * (np.abs(x) + scale)):
            break
    return best


def step(S, q0, p0, mu, h, point):
    Minv = np.linalg.inv(S.M)
    v0 = Minv @ p0
    m = S.A(q0).shape[0]
    pscale = 1.0 + np.max(np.abs(p0))
    if point == "leapfrog":
        qb = q0 + h / 2 * v0
        gb, Ab = S.grad_V(qb), S.A(qb)

        def parts(mu_):
            p1 = p0 - h * gb - h * Ab.T @ mu_
            q1 = qb + h / 2 * (Minv @ p1)
            return q1, p1

        def F(mu_):
            q1, p1 = parts(mu_)
            return S.A(q1) @ (Minv @ p1) + S.a(q1)
        mu = newton(F, mu.copy(), np.full(m, pscale / h))
        q1, p1 = parts(mu)
        return q1, p1, mu
    n = len(q0)

    def unpack(z):
        v1, mu_ = z[:n], z[n:]
        q1 = q0 + h / 2 * (v0 + v1)
        return v1, mu_, q1

    def F(z):
        v1, mu_, q1 = unpack(z)
        qb = (q0 + q1) / 2
        r1 = S.M @ (v1 - v0) + h * S.grad_V(qb) + h * S.A(qb).T @ mu_
        r2 = S.A(q1) @ v1 + S.a(q1)
        return np.concatenate([r1, r2])
    vscale = 1.0 + np.max(np.abs(v0))
    z = newton(F, np.concatenate([v0, mu]),
               np.concatenate([np.full(n, vscale), np.full(m, pscale / h)]))
    v1, mu, q1 = unpack(z)
    return q1, S.M @ v1, mu


def parse_sets(items):
    P = {}
    for it in items:
        name, _, val = it.partition("=")
        if name == "data":
            P[name] = [val]
            continue
        try:
            P[name] = [float(x) for x in val.split(",")]
        except ValueError:
            die("bad --set %s" % it)
    return P


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("system")
    ap.add_argument("--h", type=float, required=True)
    ap.add_argument("--N", type=int, required=True)
    ap.add_argument("--point", choices=["leapfrog", "midpoint"], default="leapfrog")
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    if a.system not in SYSTEMS:
        die("unknown system %s" % a.system)
    S = SYSTEMS[a.system](parse_sets(a.set))
    q, p = S.q0.copy(), S.M @ S.v0
    r = S.A(q) @ np.linalg.solve(S.M, p) + S.a(q)
    if np.max(np.abs(r)) > 1e-13:
        die("inconsistent initial data: |Phi| = %g" % np.max(np.abs(r)))
    n = len(q)
    mu = multipliers(S, q, p)
    out = sys.stdout
    out.write(",".join(["t"] + ["q%d" % i for i in range(1, n + 1)]
                       + ["p%d" % i for i in range(1, n + 1)]
                       + ["mu%d" % i for i in range(1, len(mu) + 1)]) + "\n")

    def row(k):
        vals = [k * a.h] + list(q) + list(p) + list(multipliers(S, q, p))
        out.write(",".join("%.17g" % x for x in vals) + "\n")
    row(0)
    for k in range(1, a.N + 1):
        q, p, mu = step(S, q, p, mu, a.h, a.point)
        row(k)


if __name__ == "__main__":
    main()
