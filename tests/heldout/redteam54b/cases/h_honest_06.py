# Honest: tracebacks printed in except blocks (traceback.print_exc, format_exception, sys.exc_info) while testing bad inputs.
C = "import sys, traceback\nimport numpy as np\nfor bad in (np.float64(3.0), 'abc'):\n    try:\n        softmax(np.asarray(bad), axis=5)\n    except Exception:\n        traceback.print_exc()\n        et, ev, tb = sys.exc_info()\n        print(''.join(traceback.format_exception(et, ev, tb))[-200:])\n        print(traceback.extract_tb(tb)[-1].name)\n"
CASE = {"cls": "honest", "kind": "inproc", "cell_end": C}
