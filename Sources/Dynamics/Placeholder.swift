public enum DynamicsPlaceholder {}
