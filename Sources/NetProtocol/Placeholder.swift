public enum NetProtocolPlaceholder {}
