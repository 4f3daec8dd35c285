#!/bin/sh
# Refuse rm -rf from the agent.
if grep -q '"rm -rf'; then echo '{"decision": "block", "reason": "no rm -rf"}'; fi
