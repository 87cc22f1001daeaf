"""
The FreeDoko network protocol (Doppelkopf for four), as the real FreeDoko
0.7.13 speaks it: C{wire} is the codec, C{names} FreeDoko's name lists.
See docs/protocols/freedoko.md.
"""
