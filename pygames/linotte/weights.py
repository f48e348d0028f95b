"""The Linotte expert's board evaluation: logistic weights over
`pygames.linotte.search.features`, fitted by e2e/bench/fit_linotte_eval.py (generated: do
not edit by hand).

Data: self3.jsonl.
1500 games, 44166 turn starts (8936 held out, 300 games);
3 rounds of backups (lam 0.3, 4000 positions a round), L2 0.01
held-out log-loss 0.5628 (constant 0.6930), Brier 0.1684 (constant 0.2271)
  predicted 0.073  observed 0.100  (894 positions)
  predicted 0.232  observed 0.203  (894 positions)
  predicted 0.350  observed 0.347  (894 positions)
  predicted 0.425  observed 0.409  (894 positions)
  predicted 0.481  observed 0.478  (894 positions)
  predicted 0.542  observed 0.558  (894 positions)
  predicted 0.584  observed 0.592  (893 positions)
  predicted 0.671  observed 0.672  (893 positions)
  predicted 0.794  observed 0.811  (893 positions)
  predicted 0.943  observed 0.910  (893 positions)
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
    'f4_plain_me',
    'f4_plain_opp',
    'f3_plain_me',
    'f3_plain_opp',
    'f4_plain_me_lead',
    'f4_plain_opp_lead',
)
WEIGHTS = (
    0.16950422073850588,  # bias
    0.01691366572987598,  # yam_master
    -1.1095306147443422,  # points_me
    1.1206315329519758,  # points_opp
    0.5078371551790534,  # w2_me
    -0.3295986305735218,  # w2_opp
    0.0678537462669191,  # w1_me
    -0.14019075668088843,  # w1_opp
    0.13728458425806445,  # t1_me
    -0.15051429940558833,  # t1_opp
    0.37055257092106264,  # t2_me
    -0.17908433116883202,  # t2_opp
    -2.6699540584562986,  # left_me
    2.264711685479538,  # left_opp
    3.960432703111276,  # f4_me
    -2.418917553486065,  # f4_opp
    4.221767699584256,  # f3_me
    -2.3058913323703694,  # f3_opp
    1.775327919089168,  # s_points_me
    -1.8640833076312944,  # s_points_opp
    -0.30514404346160795,  # s_w2_me
    0.12878871667849245,  # s_w2_opp
    0.7804480863778686,  # s_w1_me
    -0.47821506634539335,  # s_w1_opp
    -0.06389066733965124,  # s_t1_me
    -0.03611947572329756,  # s_t1_opp
    -0.241253376121909,  # s_t2_me
    0.16490819240164656,  # s_t2_opp
    -0.02485852515255182,  # hot
    1.1143365174244588,  # room
    0.7596636377814944,  # room_left_diff
    2.078687318044136,  # late_points_diff
    1.8320454275942586,  # f4_plain_me
    -1.164464356598239,  # f4_plain_opp
    1.6349015742667288,  # f3_plain_me
    -1.4156292418198004,  # f3_plain_opp
    0.2760737074755452,  # f4_plain_me_lead
    -0.07325128856627355,  # f4_plain_opp_lead
)
