# Sentences the model writes that people read: why an action is refused, gate lines,
# why a step is stuck, why a rollout halted. The journal keeps the English; these show it
# in the reader's language.
