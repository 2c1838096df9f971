"""The terminal a command runs at: its standard streams, its width, and the prompts that ask a
hand of a table one line at a time. The command line (:mod:`..cli`) wires these in."""
