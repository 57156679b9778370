// The hook types of the gateway's yoga plugins that yoga does not name: one definition for every room.
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context';

/** The onExecuteDone hook yoga hands an operation's plugins (the one an onExecute hook returns). */
export type ExecuteDone = NonNullable<
  Exclude<Awaited<ReturnType<NonNullable<Plugin<Context>['onExecute']>>>, void>['onExecuteDone']
>;

/** The onSubscribeResult hook yoga hands a subscription's plugins (the one an onSubscribe hook returns). */
export type SubscribeResult = NonNullable<
  Exclude<Awaited<ReturnType<NonNullable<Plugin<Context>['onSubscribe']>>>, void>['onSubscribeResult']
>;
