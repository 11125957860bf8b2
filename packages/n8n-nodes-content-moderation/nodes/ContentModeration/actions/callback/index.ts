import { defineResource } from '../resource';
import * as receive from './receive.operation';

export const { operations, description } = defineResource('callback', [receive], { default: 'receive' });
