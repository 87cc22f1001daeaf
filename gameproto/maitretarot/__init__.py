"""MaîtreTarot: French Tarot for four over the MaîtreTarot binary protocol."""
