"""Tournament mathematics, pure and deterministic: pairings (round robin, Swiss, single
elimination), standings with tie-breaks, and ratings. No I/O, no Discord: the tournament service
stores what these functions decide."""
