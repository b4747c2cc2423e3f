// The widget's read marks, shared: the agents' "Seen" and the visitor's "Read" are one rule.
export * from "../../../widget/src/app/state/read-mark";
