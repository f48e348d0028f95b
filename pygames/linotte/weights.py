"""The Linotte expert's board evaluation: logistic weights over
`pygames.linotte.search.features`, fitted by e2e/bench/fit_linotte_eval.py (generated: do
not edit by hand).

Data: mix1.jsonl, self1.jsonl, self2.jsonl.
1900 games, 57006 turn starts (11656 held out, 380 games);
5 rounds of backups (lam 0.3, 4000 positions a round), L2 0.01
held-out log-loss 0.5395 (constant 0.6930), Brier 0.1763 (constant 0.2416)
  predicted 0.071  observed 0.063  (1166 positions)
  predicted 0.228  observed 0.223  (1166 positions)
  predicted 0.336  observed 0.309  (1166 positions)
  predicted 0.416  observed 0.438  (1166 positions)
  predicted 0.481  observed 0.478  (1166 positions)
  predicted 0.545  observed 0.519  (1166 positions)
  predicted 0.595  observed 0.618  (1165 positions)
  predicted 0.679  observed 0.687  (1165 positions)
  predicted 0.791  observed 0.797  (1165 positions)
  predicted 0.942  observed 0.948  (1165 positions)
"""

FEATURES = (
    'bias',
    'yam_master',
    'points_me',
    'points_opp',
    'w2_me',
    'w2_opp',
    'w1_me',
    'w1_opp',
    't1_me',
    't1_opp',
    't2_me',
    't2_opp',
    'left_me',
    'left_opp',
    'f4_me',
    'f4_opp',
    'f3_me',
    'f3_opp',
    's_points_me',
    's_points_opp',
    's_w2_me',
    's_w2_opp',
    's_w1_me',
    's_w1_opp',
    's_t1_me',
    's_t1_opp',
    's_t2_me',
    's_t2_opp',
    'hot',
    'room',
    'room_left_diff',
    'late_points_diff',
)
WEIGHTS = (
    0.18142892399820484,  # bias
    -0.01386555584593282,  # yam_master
    -1.8907471276537542,  # points_me
    1.9246360628429409,  # points_opp
    0.6300217009231202,  # w2_me
    -0.5433897938180141,  # w2_opp
    0.37691788023563116,  # w1_me
    -0.33836120206791404,  # w1_opp
    -0.10885129129277644,  # t1_me
    -0.02029986284702384,  # t1_opp
    0.738872992215504,  # t2_me
    -0.5230899309713349,  # t2_opp
    -2.002576791428252,  # left_me
    2.048937295377242,  # left_opp
    2.820264095643642,  # f4_me
    -2.3301026557439894,  # f4_opp
    2.116607074787277,  # f3_me
    -1.1774666713126525,  # f3_opp
    2.966914380216528,  # s_points_me
    -2.9958709185852754,  # s_points_opp
    -0.5549571938384168,  # s_w2_me
    0.4392012767426312,  # s_w2_opp
    0.17197072946179842,  # s_w1_me
    -0.0602134849001564,  # s_w1_opp
    0.5392753940703864,  # s_t1_me
    -0.34899863695405625,  # s_t1_opp
    -1.0942325879085733,  # s_t2_me
    0.788199913697088,  # s_t2_opp
    0.11568094302972287,  # hot
    -0.23103615645188208,  # room
    -3.6769658480787744,  # room_left_diff
    3.171473817944307,  # late_points_diff
)
