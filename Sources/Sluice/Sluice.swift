/// Sluice: the fast runtime. The Combine API arrives here with the fast-runtime issue.
public enum SluiceRuntime {}
