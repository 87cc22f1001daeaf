import json, sys

for clicks, line in enumerate(sys.stdin):  # INITIALISATION, then one action a line
    message = json.loads(line)  # {"init": {...}} or {"type": "CLICK", "x": X, "y": Y, ..., "player": 1}
    over = clicks == 3
    answer = {"displays": [{"player": 1, "width": 200, "height": 100, "content": [
                  {"tag": "text", "x": 10, "y": 50, "content": f"{clicks} of 3 clicks"}]}],
              "requested_actions": [] if over else [{"type": "CLICK", "player": 1}],
              "game_state": {"scores": [clicks], "gameover": over}}
    if "init" in message:
        answer["initvalues"] = {}  # nothing random to keep
    print(json.dumps(answer, indent=2), flush=True)  # any layout: one JSON value an answer
