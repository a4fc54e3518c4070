export declare function lazySchema<T extends object>(make: () => T): T;
export declare function lazyValue<T extends object>(make: () => T): T;
